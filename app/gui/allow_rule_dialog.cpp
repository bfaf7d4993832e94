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
    : QDialog(parent),
      host_(flag.section(QLatin1Char(' '), 1)),
      writer_(profileDir),
      profile_(new QComboBox(this)),
      message_(new QLabel(this)),
      preview_(new QPlainTextEdit(this))
{
    setWindowTitle(tr("Allow this next time"));
    auto* intro = new QLabel(tr("Sessions started with the profile below will be allowed to reach <b>%1</b> "
                                "(<code>%2</code>). Nothing is written until you choose \"Write to profile\".")
                                 .arg(host_.toHtmlEscaped(), flag.toHtmlEscaped()),
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
    plan_ = writer_.plan(profileName(), host_);
    if (!plan_.error.isEmpty()) {
        message_->setText(plan_.error);
    } else if (plan_.alreadyThere) {
        message_->setText(tr("%1 already allows %2.").arg(plan_.path, host_));
    } else {
        message_->setText((plan_.creates ? tr("%1 will be created with this text (added: %2):")
                                         : tr("%1 will read as below (added: %2):"))
                              .arg(plan_.path, plan_.added));
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
