// SPDX-License-Identifier: Apache-2.0
#include "policy_page.h"

#include <QComboBox>
#include <QShowEvent>
#include <algorithm>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "list_field.h"
#include "moatd_connection.h"
#include "page_message.h"

namespace moat::gui {

namespace {

enum GridColumn { LabelColumn, ControlColumn, OriginColumn, ResetColumn };

bool isHostList(const QString& name)
{
    return name.endsWith(QStringLiteral("_hosts"));
}

}  // namespace

PolicyPage::PolicyPage(MoatdConnection* moatd, QWidget* parent) : QWidget(parent), moatd_(moatd)
{
    setAccessibleName(tr("Policy"));
    auto* layout = new QVBoxLayout(this);

    auto* intro = new QLabel(tr("What an agent may grant itself when it asks for more from inside a sandbox "
                                "(moat request): granted on its own, asked of you, or refused. An approval only "
                                "changes the sandbox started next; the running one never gains anything."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    broken_ = new QLabel(this);
    broken_->setAccessibleName(tr("Policy file problem"));
    broken_->setWordWrap(true);
    broken_->setTextFormat(Qt::PlainText);
    broken_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    broken_->hide();
    layout->addWidget(broken_);

    grid_ = new QGridLayout;
    layout->addLayout(grid_);
    addRow(QStringLiteral("allow_host"), tr("Another &host"),
           tr("A host not named in the lists below (moat request --allow-host)"));
    addRow(QStringLiteral("sudo"), tr("Roo&t in the sandbox"),
           tr("Root inside the sandbox's own user namespace (moat request --sudo)"));
    addRow(QStringLiteral("docker"), tr("A &container engine"), tr("Docker inside the sandbox (moat request --docker)"));
    addRow(QStringLiteral("net_open"), tr("The &open network"),
           tr("The host's network without egress control (moat request --net open)"));
    addRow(QStringLiteral("auto_hosts"), tr("Hosts &approved on their own"),
           tr("Host patterns granted without asking, e.g. *.pypi.org, registry.npmjs.org"));
    addRow(QStringLiteral("deny_hosts"), tr("Hosts always re&fused"),
           tr("Host patterns refused without asking, e.g. *.internal.example"));
    addRow(QStringLiteral("timeout"), tr("A question &waits"),
           tr("How long a question waits for you before it counts as a deny, e.g. 2m (at most 10m)"));
    grid_->setColumnStretch(ControlColumn, 1);

    path_ = new QLabel(this);
    path_->setAccessibleName(tr("Policy file"));
    path_->setTextFormat(Qt::PlainText);
    path_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    layout->addWidget(path_);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    revert_ = new QPushButton(tr("Re&vert"), this);
    revert_->setAccessibleName(tr("Drop unsaved changes and read the policy again"));
    save_ = new QPushButton(tr("Save po&licy"), this);
    save_->setAccessibleName(tr("Save the policy"));
    buttons->addWidget(revert_);
    buttons->addWidget(save_);
    layout->addLayout(buttons);
    message_ = makePageMessage(this);
    layout->addWidget(message_);
    layout->addStretch(1);

    connect(save_, &QPushButton::clicked, this, &PolicyPage::save);
    connect(revert_, &QPushButton::clicked, this, &PolicyPage::reload);
    // Read again when moatd comes back after going away (a first link is
    // the page's own first call, already answered).
    connect(moatd_, &MoatdConnection::linkChanged, this, [this](bool linked) {
        if (!linked) {
            lostLink_ = true;
        } else if (lostLink_ && isVisible()) {
            lostLink_ = false;
            reload();
        }
    });
    save_->setEnabled(false);
}

void PolicyPage::addRow(const QString& name, const QString& label, const QString& help)
{
    Setting setting;
    setting.name = name;
    const int row = grid_->rowCount();
    auto* title = new QLabel(label, this);
    QWidget* control = nullptr;
    if (kGrantSettings.contains(setting.name)) {
        setting.grant = new QComboBox(this);
        setting.grant->addItem(tr("Granted on its own"), QStringLiteral("auto"));
        setting.grant->addItem(tr("Ask me"), QStringLiteral("ask"));
        setting.grant->addItem(tr("Refused"), QStringLiteral("deny"));
        control = setting.grant;
    } else {
        setting.text = new QLineEdit(this);
        setting.text->setPlaceholderText(isHostList(setting.name) ? tr("none") : QString());
        control = setting.text;
    }
    control->setAccessibleName(QString(label).remove(QLatin1Char('&')));
    control->setAccessibleDescription(help);
    control->setToolTip(help);
    title->setBuddy(control);
    setting.origin = new QLabel(this);
    setting.origin->setAccessibleName(tr("Where %1 comes from").arg(control->accessibleName()));
    setting.reset = new QToolButton(this);
    setting.reset->setText(tr("Reset"));
    setting.reset->setToolTip(tr("Back to moat's default"));
    setting.reset->setAccessibleName(tr("Reset %1 to moat's default").arg(control->accessibleName()));
    setting.reset->setFocusPolicy(Qt::StrongFocus);
    grid_->addWidget(title, row, LabelColumn);
    grid_->addWidget(control, row, ControlColumn);
    grid_->addWidget(setting.origin, row, OriginColumn);
    grid_->addWidget(setting.reset, row, ResetColumn);

    settings_.push_back(std::move(setting));
    if (auto* box = settings_.back().grant) {
        connect(box, &QComboBox::activated, this, [this, name] { markEdited(*find(name), true); });
    } else {
        connect(settings_.back().text, &QLineEdit::textEdited, this, [this, name] { markEdited(*find(name), true); });
    }
    connect(settings_.back().reset, &QToolButton::clicked, this, [this, name] {
        Setting& reset = *find(name);
        setValue(reset, reset.fallback);
        markEdited(reset, false);
    });
}

PolicyPage::Setting* PolicyPage::find(const QString& name)
{
    for (Setting& setting : settings_) {
        if (setting.name == name) {
            return &setting;
        }
    }
    return nullptr;
}

const PolicyPage::Setting* PolicyPage::find(const QString& name) const
{
    return const_cast<PolicyPage*>(this)->find(name);
}

QComboBox* PolicyPage::grantBox(const QString& setting) const
{
    const Setting* found = find(setting);
    return found ? found->grant : nullptr;
}

QLineEdit* PolicyPage::textField(const QString& setting) const
{
    const Setting* found = find(setting);
    return found ? found->text : nullptr;
}

QToolButton* PolicyPage::resetButton(const QString& setting) const
{
    const Setting* found = find(setting);
    return found ? found->reset : nullptr;
}

QString PolicyPage::originText(const QString& setting) const
{
    const Setting* found = find(setting);
    return found ? found->origin->text() : QString();
}

QString PolicyPage::message() const
{
    return message_->text();
}

QString PolicyPage::brokenText() const
{
    return broken_->isHidden() ? QString() : broken_->text();
}

void PolicyPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // Coming back to the page keeps what you changed and did not save yet.
    const bool unsaved = std::any_of(settings_.begin(), settings_.end(), [](const Setting& s) { return !s.saved; });
    if (!unsaved) {
        reload();
    }
}

void PolicyPage::reload()
{
    moatd_->getPolicy([page = QPointer(this)](const MoatdAnswer& answer) {
        if (page) {
            page->showPolicy(answer);
        }
    });
}

void PolicyPage::showPolicy(const MoatdAnswer& answer)
{
    if (!answer.ok) {
        say(tr("Could not read the policy: %1").arg(answer.errorMessage), true);
        emit answered(false);
        return;
    }
    const QJsonObject policy = QJsonDocument::fromJson(answer.value.toUtf8()).object();
    const QJsonObject shown = policy.value(QStringLiteral("settings")).toObject();
    for (Setting& setting : settings_) {
        const QJsonObject entry = shown.value(setting.name).toObject();
        setting.fallback = entry.value(QStringLiteral("default"));
        setValue(setting, entry.value(QStringLiteral("value")));
        setting.yours = entry.value(QStringLiteral("origin")).toString() == QStringLiteral("file");
        setting.saved = true;
        showOrigin(setting);
    }
    const QString broken = policy.value(QStringLiteral("broken")).toString();
    broken_->setText(tr("Your policy file cannot be used, so every request is refused until it is fixed or "
                        "saved here again (saving starts from moat's defaults): %1")
                         .arg(broken));
    broken_->setVisible(!broken.isEmpty());
    path_->setText(tr("Kept in %1").arg(policy.value(QStringLiteral("path")).toString()));
    save_->setEnabled(!broken.isEmpty());
    emit answered(true);
}

QJsonValue PolicyPage::valueOf(const Setting& setting) const
{
    if (setting.grant) {
        return setting.grant->currentData().toString();
    }
    if (isHostList(setting.name)) {
        return QJsonArray::fromStringList(splitListField(setting.text->text()));
    }
    return setting.text->text().trimmed();
}

void PolicyPage::setValue(Setting& setting, const QJsonValue& value)
{
    if (setting.grant) {
        const int index = setting.grant->findData(value.toString());
        setting.grant->setCurrentIndex(index < 0 ? setting.grant->findData(QStringLiteral("deny")) : index);
        return;
    }
    if (value.isArray()) {
        QStringList items;
        for (const QJsonValue& item : value.toArray()) {
            items.append(item.toString());
        }
        setting.text->setText(joinListField(items));
    } else {
        setting.text->setText(value.toString());
    }
}

void PolicyPage::markEdited(Setting& setting, bool yours)
{
    setting.yours = yours;
    setting.saved = false;
    showOrigin(setting);
    save_->setEnabled(true);
}

void PolicyPage::showOrigin(Setting& setting)
{
    QString origin = setting.yours ? tr("your policy") : tr("default");
    if (!setting.saved) {
        origin = tr("%1 (not saved)").arg(origin);
    }
    setting.origin->setText(origin);
    setting.reset->setEnabled(setting.yours);
}

void PolicyPage::save()
{
    QJsonObject change;
    for (const Setting& setting : settings_) {
        if (setting.yours) {
            change.insert(setting.name, valueOf(setting));
        }
    }
    save_->setEnabled(false);
    const QString json = QString::fromUtf8(QJsonDocument(change).toJson(QJsonDocument::Compact));
    moatd_->setPolicy(json, [page = QPointer(this)](const MoatdAnswer& answer) {
        if (!page) {
            return;
        }
        if (!answer.ok) {
            // Nothing was written: moatd refuses a change whole.
            page->save_->setEnabled(true);
            page->say(answer.errorMessage, true);
            emit page->answered(false);
            return;
        }
        page->say(tr("Saved. The next request an agent makes is judged by this policy."), false);
        page->reload();
    });
}

void PolicyPage::say(const QString& text, bool error)
{
    setPageMessage(message_, text, error);
}

}  // namespace moat::gui
