// SPDX-License-Identifier: Apache-2.0
#include "allow_rule_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace moat::gui {

AllowRuleDialog::AllowRuleDialog(const QString& flag, const QString& profileDir, const QStringList& profiles,
                                 QWidget* parent)
    : AllowRuleDialog(QStringList{flag.section(QLatin1Char(' '), 1)}, profileDir, profiles, parent)
{
}

AllowRuleDialog::AllowRuleDialog(const QStringList& hosts, const QString& profileDir, const QStringList& profiles,
                                 QWidget* parent)
    : QDialog(parent),
      hosts_(hosts),
      writer_(profileDir),
      profile_(new QComboBox(this)),
      message_(new QLabel(this)),
      preview_(new QPlainTextEdit(this))
{
    setWindowTitle(tr("Allow this next time"));
    QStringList flags;
    for (const QString& host : hosts_) {
        flags.append(QStringLiteral("--allow-host ") + host);
    }
    auto* intro = new QLabel(tr("Sessions started with the profile below will be allowed to reach <b>%1</b> "
                                "(<code>%2</code>). Nothing is written until you choose \"Write to profile\".")
                                 .arg(hosts_.join(QStringLiteral(", ")).toHtmlEscaped(),
                                      flags.join(QLatin1Char(' ')).toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);

    profile_->setEditable(true);
    profile_->addItems(profiles);
    profile_->setAccessibleName(tr("Profile to add the rule to"));
    preview_->setReadOnly(true);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    preview_->setAccessibleName(tr("The profile file as it will be written"));
    preview_->setTabChangesFocus(true);
    message_->setWordWrap(true);
    message_->setTextFormat(Qt::PlainText);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    write_ = buttons->addButton(tr("&Write to profile"), QDialogButtonBox::AcceptRole);
    write_->setAutoDefault(false);
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);  // Enter never writes by accident
    connect(buttons, &QDialogButtonBox::accepted, this, &AllowRuleDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AllowRuleDialog::reject);

    auto* form = new QFormLayout;
    auto* profileLabel = new QLabel(tr("&Profile:"), this);
    profileLabel->setBuddy(profile_);
    form->addRow(profileLabel, profile_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(message_);
    layout->addWidget(preview_, 1);
    layout->addWidget(buttons);

    connect(profile_, &QComboBox::currentTextChanged, this, &AllowRuleDialog::refresh);
    if (profile_->currentText().isEmpty()) {
        profile_->setEditText(QStringLiteral("default"));
    }
    refresh();
}

void AllowRuleDialog::setProfileName(const QString& name)
{
    profile_->setEditText(name);
    refresh();
}

void AllowRuleDialog::lockProfile(const QString& name)
{
    setProfileName(name);
    profile_->setEditable(false);
    profile_->clear();
    profile_->addItem(name);
    profile_->setEnabled(false);
    refresh();
}

QString AllowRuleDialog::profileName() const
{
    return profile_->currentText().trimmed();
}

QString AllowRuleDialog::previewText() const
{
    return plan_.error.isEmpty() ? plan_.newText : QString();
}

QString AllowRuleDialog::message() const
{
    return message_->text();
}

void AllowRuleDialog::refresh()
{
    plan_ = writer_.plan(profileName(), hosts_);
    if (!plan_.error.isEmpty()) {
        message_->setText(plan_.error);
    } else if (plan_.alreadyThere) {
        message_->setText(tr("%1 already allows %2.").arg(plan_.path, hosts_.join(QStringLiteral(", "))));
    } else {
        QString text = (plan_.creates ? tr("%1 will be created with this text (added: %2):")
                                      : tr("%1 will read as below (added: %2):"))
                           .arg(plan_.path, plan_.added);
        if (!plan_.parameter.isEmpty()) {
            // The session recorded the profile's name, not its value: the
            // host applies to every value it is started with.
            text.prepend(tr("This profile takes a value (${%1}); the hosts apply whatever value it is started "
                            "with.")
                             .arg(plan_.parameter) +
                         QLatin1Char(' '));
        }
        message_->setText(text);
    }
    preview_->setPlainText(previewText());
    write_->setEnabled(plan_.error.isEmpty() && !plan_.alreadyThere);
}

void AllowRuleDialog::accept()
{
    // The file may have changed since the preview: only the text shown is
    // ever written; a different one is shown again for a second look.
    const QString shown = previewText();
    refresh();
    if (previewText() != shown) {
        message_->setText(tr("%1 changed meanwhile; check the new text and choose again.").arg(plan_.path));
        return;
    }
    QString error;
    if (!write_->isEnabled() || !ProfileRuleWriter::apply(plan_, &error)) {
        if (!error.isEmpty()) {
            message_->setText(error);
        }
        return;
    }
    QDialog::accept();
}

}  // namespace moat::gui
