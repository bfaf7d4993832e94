// SPDX-License-Identifier: Apache-2.0
#include "new_sandbox_dialog.h"

#include "agent_preset.h"
#include "moatd_connection.h"
#include "origin_badge.h"
#include "policy/profile.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <utility>

namespace moat::gui {

namespace {

// A form row whose field is a layout gets no label buddy from QFormLayout:
// without one the label's access key is shown as a literal "&" and does
// nothing.
QLabel* buddyLabel(const QString& text, QWidget* buddy)
{
    auto* label = new QLabel(text, buddy->parentWidget());
    label->setBuddy(buddy);
    return label;
}

QStringList toQStringList(const std::vector<std::string>& values)
{
    QStringList list;
    for (const std::string& value : values) {
        list << QString::fromStdString(value);
    }
    return list;
}

}  // namespace

NewSandboxDialog::NewSandboxDialog(MoatdConnection* moatd, QWidget* parent) : QDialog(parent), moatd_(moatd)
{
    setWindowTitle(tr("New sandbox"));
    setObjectName(QStringLiteral("newSandboxDialog"));
    buildForm();
    loadSecretNames();
    applyPreset(0);
    updatePreview();
}

void NewSandboxDialog::buildForm()
{
    auto* form = new QFormLayout;
    auto named = [this](QWidget* widget, const char* objectName, const QString& accessible) {
        widget->setObjectName(QString::fromLatin1(objectName));
        widget->setAccessibleName(accessible);
        return widget;
    };

    image_ = new QComboBox(this);
    image_->setEditable(true);
    image_->addItem(QStringLiteral("host"));
    named(image_, "image", tr("Image"));
    image_->setToolTip(tr("host: the host's own files, read-only; or a folder holding a root file system"));
    auto* imageFolder = new QPushButton(tr("Folder…"), this);
    imageFolder->setAccessibleName(tr("Choose a root file system folder"));
    auto* imageRow = new QHBoxLayout;
    imageRow->addWidget(image_, 1);
    imageRow->addWidget(imageFolder);
    form->addRow(buddyLabel(tr("&Image:"), image_), imageRow);

    workspace_ = new QLineEdit(QDir::currentPath(), this);
    named(workspace_, "workspace", tr("Workspace folder"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setAccessibleName(tr("Choose the workspace folder"));
    auto* workspaceRow = new QHBoxLayout;
    workspaceRow->addWidget(workspace_, 1);
    workspaceRow->addWidget(browse);
    form->addRow(buddyLabel(tr("&Workspace:"), workspace_), workspaceRow);

    preset_ = new QComboBox(this);
    named(preset_, "preset", tr("Agent"));
    for (const AgentPreset& preset : AgentPreset::all()) {
        preset_->addItem(preset.label, preset.id);
    }
    form->addRow(tr("&Agent:"), preset_);

    command_ = new QLineEdit(this);
    named(command_, "command", tr("Command"));
    form->addRow(tr("&Command:"), command_);

    profile_ = new QComboBox(this);
    profile_->setEditable(true);
    named(profile_, "profile", tr("Profile"));
    profile_->setToolTip(tr("NAME, or NAME=VALUE for a profile with a parameter (github-readonly=OWNER/REPO)"));
    profile_->addItem(QString());
    for (const std::string& name : profileNames(userProfileDir(), builtinProfileDir())) {
        profile_->addItem(QString::fromStdString(name));
    }
    profileSummary_ = new QLabel(this);
    profileSummary_->setWordWrap(true);
    profileSummary_->setTextFormat(Qt::PlainText);
    auto* profileColumn = new QVBoxLayout;
    profileColumn->addWidget(profile_);
    profileColumn->addWidget(profileSummary_);
    form->addRow(buddyLabel(tr("&Profile:"), profile_), profileColumn);

    hosts_ = new QListWidget(this);
    named(hosts_, "hosts", tr("Hosts the agent may reach"));
    hosts_->setMaximumHeight(90);
    newHost_ = new QLineEdit(this);
    named(newHost_, "newHost", tr("Host to add"));
    newHost_->setPlaceholderText(tr("host[:port] or *.example.com"));
    auto* addHost = new QPushButton(tr("Add"), this);
    addHost->setObjectName(QStringLiteral("addHost"));
    addHost->setAccessibleName(tr("Add host"));
    auto* removeHost = new QPushButton(tr("Remove"), this);
    removeHost->setObjectName(QStringLiteral("removeHost"));
    removeHost->setAccessibleName(tr("Remove the selected host"));
    hostsOrigin_ = new OriginBadge(OriginBadge::Setting::Hosts, this);
    hostsOrigin_->setObjectName(QStringLiteral("hostsOrigin"));
    auto* hostEdit = new QHBoxLayout;
    hostEdit->addWidget(newHost_, 1);
    hostEdit->addWidget(addHost);
    hostEdit->addWidget(removeHost);
    hostEdit->addWidget(hostsOrigin_);
    auto* hostColumn = new QVBoxLayout;
    hostColumn->addWidget(hosts_);
    hostColumn->addLayout(hostEdit);
    form->addRow(buddyLabel(tr("Network &hosts:"), hosts_), hostColumn);

    net_ = new QComboBox(this);
    named(net_, "net", tr("Network mode"));
    net_->addItem(tr("proxy: only the hosts above"), QStringLiteral("proxy"));
    net_->addItem(tr("none: no network"), QStringLiteral("none"));
    net_->addItem(tr("open: the host's network, no egress control"), QStringLiteral("open"));
    netOrigin_ = new OriginBadge(OriginBadge::Setting::NetworkMode, this);
    netOrigin_->setObjectName(QStringLiteral("netOrigin"));
    auto* netRow = new QHBoxLayout;
    netRow->addWidget(net_, 1);
    netRow->addWidget(netOrigin_);
    form->addRow(buddyLabel(tr("&Network:"), net_), netRow);

    sudo_ = new QCheckBox(tr("sudo: root inside its own user namespace"), this);
    named(sudo_, "sudo", tr("sudo"));
    docker_ = new QCheckBox(tr("docker: a container engine inside"), this);
    named(docker_, "docker", tr("docker"));
    yolo_ = new QCheckBox(tr("yolo: give up the boundary"), this);
    named(yolo_, "yolo", tr("yolo"));
    yoloWarning_ = new QLabel(
        tr("With yolo the agent gets sudo, the open network and every file you can read. Only the records and "
           "the expiry stay outside its reach. Use it only for an agent you would let use your account."),
        this);
    yoloWarning_->setObjectName(QStringLiteral("yoloWarning"));
    yoloWarning_->setWordWrap(true);
    yoloWarning_->setVisible(false);
    sudoOrigin_ = new OriginBadge(OriginBadge::Setting::Sudo, this);
    sudoOrigin_->setObjectName(QStringLiteral("sudoOrigin"));
    dockerOrigin_ = new OriginBadge(OriginBadge::Setting::Docker, this);
    dockerOrigin_->setObjectName(QStringLiteral("dockerOrigin"));
    yoloOrigin_ = new OriginBadge(OriginBadge::Setting::Yolo, this);
    yoloOrigin_->setObjectName(QStringLiteral("yoloOrigin"));
    auto* powers = new QVBoxLayout;
    for (auto [box, badge] : {std::pair{sudo_, sudoOrigin_}, std::pair{docker_, dockerOrigin_},
                              std::pair{yolo_, yoloOrigin_}}) {
        auto* row = new QHBoxLayout;
        row->addWidget(box, 1);
        row->addWidget(badge);
        powers->addLayout(row);
    }
    powers->addWidget(yoloWarning_);
    form->addRow(tr("Powers:"), powers);

    secrets_ = new QListWidget(this);
    named(secrets_, "secrets", tr("Secrets to bind"));
    secrets_->setMaximumHeight(80);
    secretsOrigin_ = new OriginBadge(OriginBadge::Setting::Secrets, this);
    secretsOrigin_->setObjectName(QStringLiteral("secretsOrigin"));
    auto* secretsRow = new QHBoxLayout;
    secretsRow->addWidget(secrets_, 1);
    secretsRow->addWidget(secretsOrigin_, 0, Qt::AlignTop);
    form->addRow(buddyLabel(tr("&Secrets:"), secrets_), secretsRow);

    ttl_ = new QLineEdit(QStringLiteral("8h"), this);
    named(ttl_, "ttl", tr("Time to live"));
    ttlOrigin_ = new OriginBadge(OriginBadge::Setting::TimeToLive, this);
    ttlOrigin_->setObjectName(QStringLiteral("ttlOrigin"));
    auto* ttlRow = new QHBoxLayout;
    ttlRow->addWidget(ttl_, 1);
    ttlRow->addWidget(ttlOrigin_);
    form->addRow(buddyLabel(tr("&Time to live:"), ttl_), ttlRow);

    name_ = new QLineEdit(this);
    named(name_, "name", tr("Session name"));
    form->addRow(tr("Na&me:"), name_);

    preview_ = new QPlainTextEdit(this);
    named(preview_, "preview", tr("The equivalent moat run command"));
    preview_->setReadOnly(true);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    preview_->setMaximumHeight(80);
    auto* copy = new QPushButton(tr("C&opy command"), this);
    copy->setObjectName(QStringLiteral("copy"));
    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("problem"));
    problem_->setWordWrap(true);
    problem_->setTextFormat(Qt::PlainText);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    start_ = buttons->addButton(tr("Sta&rt"), QDialogButtonBox::AcceptRole);
    start_->setObjectName(QStringLiteral("start"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Equivalent command:"), this));
    layout->addWidget(preview_);
    layout->addWidget(copy, 0, Qt::AlignRight);
    layout->addWidget(problem_);
    layout->addWidget(buttons);

    auto changed = [this]() { updatePreview(); };
    connect(imageFolder, &QPushButton::clicked, this, &NewSandboxDialog::chooseImageFolder);
    connect(browse, &QPushButton::clicked, this, &NewSandboxDialog::chooseWorkspace);
    connect(image_, &QComboBox::currentTextChanged, this, changed);
    connect(workspace_, &QLineEdit::textChanged, this, changed);
    connect(preset_, &QComboBox::currentIndexChanged, this, &NewSandboxDialog::applyPreset);
    connect(command_, &QLineEdit::textChanged, this, changed);
    connect(profile_, &QComboBox::currentTextChanged, this, &NewSandboxDialog::applyProfile);
    connect(addHost, &QPushButton::clicked, this, [this]() {
        const QString host = newHost_->text().trimmed();
        if (!host.isEmpty() && hosts_->findItems(host, Qt::MatchExactly).isEmpty()) {
            hosts_->addItem(host);
        }
        newHost_->clear();
        updatePreview();
    });
    connect(newHost_, &QLineEdit::returnPressed, addHost, &QPushButton::click);
    connect(removeHost, &QPushButton::clicked, this, [this]() {
        qDeleteAll(hosts_->selectedItems());
        updatePreview();
    });
    // A change the dialog did not make itself is the user's.
    connect(net_, &QComboBox::currentIndexChanged, this, [this]() {
        if (!settingDefaults_) {
            markUser(netOrigin_);
        }
    });
    connect(netOrigin_, &OriginBadge::resetRequested, this, [this]() {
        netOrigin_->setOrigin(ValueOrigin::Default);
        applyProfile();
    });
    connect(ttl_, &QLineEdit::textChanged, this, [this]() {
        if (!settingDefaults_) {
            markUser(ttlOrigin_);
        }
    });
    connect(ttlOrigin_, &OriginBadge::resetRequested, this, [this]() {
        ttlOrigin_->setOrigin(ValueOrigin::Default);
        applyProfile();
    });
    for (auto [box, badge] : {std::pair{sudo_, sudoOrigin_}, std::pair{docker_, dockerOrigin_},
                              std::pair{yolo_, yoloOrigin_}}) {
        connect(box, &QCheckBox::toggled, this, changed);
        connect(badge, &OriginBadge::resetRequested, box, [box]() { box->setChecked(false); });
    }
    connect(hostsOrigin_, &OriginBadge::resetRequested, this, [this]() {
        hosts_->clear();
        updatePreview();
    });
    connect(secretsOrigin_, &OriginBadge::resetRequested, this, [this]() {
        for (int row = 0; row < secrets_->count(); ++row) {
            if (!profileSecrets_.contains(secrets_->item(row)->text())) {
                secrets_->item(row)->setCheckState(Qt::Unchecked);
            }
        }
    });
    connect(secrets_, &QListWidget::itemChanged, this, changed);
    connect(name_, &QLineEdit::textChanged, this, changed);
    connect(copy, &QPushButton::clicked, this, &NewSandboxDialog::copyCommand);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(start_, &QPushButton::clicked, this, [this]() {
        emit startRequested(choices());
        accept();
    });
}

void NewSandboxDialog::loadSecretNames()
{
    moatd_->listSecrets([dialog = QPointer<NewSandboxDialog>(this)](const MoatdAnswer& answer) {
        if (!dialog || !answer.ok) {
            return;
        }
        for (const QJsonValue& secret : QJsonDocument::fromJson(answer.value.toUtf8()).array()) {
            auto* item = new QListWidgetItem(secret.toObject().value(QLatin1String("name")).toString(),
                                             dialog->secrets_);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
            dialog->showProfileSecret(item);
        }
    });
}

void NewSandboxDialog::applyPreset(int index)
{
    const QList<AgentPreset> presets = AgentPreset::all();
    if (index < 0 || index >= presets.size()) {
        return;
    }
    const AgentPreset& preset = presets.at(index);
    command_->setText(shellCommandLine(preset.command));
    hosts_->clear();
    hosts_->addItems(preset.allowHosts);
    name_->setText(preset.id + QDateTime::currentDateTime().toString(QStringLiteral("-MMdd-hhmmss")));
    updatePreview();
}

void NewSandboxDialog::applyProfile()
{
    const QString spec = profile_->currentText().trimmed();
    profileHosts_.clear();
    profileNet_.clear();
    profileTtl_.clear();
    profileSecrets_.clear();
    profileSummary_->clear();
    profileValid_ = true;
    if (!spec.isEmpty()) {
        auto profile = Profile::load(spec.toStdString());
        if (!profile) {
            profileValid_ = false;
            profileSummary_->setText(QString::fromStdString(profile.error().message()));
        } else {
            const ProfileFlags& flags = profile->flags;
            profileNet_ = QString::fromStdString(flags.net.value_or(std::string()));
            profileTtl_ = QString::fromStdString(flags.ttl.value_or(std::string()));
            profileSecrets_ = toQStringList(flags.secrets);
            profileHosts_ = toQStringList(flags.allowHosts);
            QStringList lines{QString::fromStdString(profile->description)};
            if (!flags.allowHosts.empty()) {
                lines << tr("Adds hosts: %1").arg(toQStringList(flags.allowHosts).join(QLatin1String(", ")));
            }
            if (!flags.rules.empty()) {
                lines << tr("Adds %n rule(s): %1", nullptr, static_cast<int>(flags.rules.size()))
                             .arg(toQStringList(flags.rules).join(QLatin1String("; ")));
            }
            profileSummary_->setText(lines.join(QLatin1Char('\n')));
        }
    }
    settingDefaults_ = true;
    if (netOrigin_->origin() != ValueOrigin::User) {
        net_->setCurrentIndex(net_->findData(profileNet_.isEmpty() ? QStringLiteral("proxy") : profileNet_));
        netOrigin_->setOrigin(profileNet_.isEmpty() ? ValueOrigin::Default : ValueOrigin::Profile);
    }
    if (ttlOrigin_->origin() != ValueOrigin::User) {
        ttl_->setText(profileTtl_.isEmpty() ? QStringLiteral("8h") : profileTtl_);
        ttlOrigin_->setOrigin(profileTtl_.isEmpty() ? ValueOrigin::Default : ValueOrigin::Profile);
    }
    settingDefaults_ = false;
    applyProfileSecrets();
    updatePreview();
}

void NewSandboxDialog::applyProfileSecrets()
{
    const QSignalBlocker quiet(secrets_);
    for (int row = 0; row < secrets_->count(); ++row) {
        showProfileSecret(secrets_->item(row));
    }
}

void NewSandboxDialog::showProfileSecret(QListWidgetItem* item)
{
    const bool fromProfile = profileSecrets_.contains(item->text());
    const bool wasFromProfile = item->data(Qt::UserRole).toBool();
    item->setData(Qt::UserRole, fromProfile);
    if (fromProfile) {
        item->setCheckState(Qt::Checked);
        item->setFlags(item->flags() & ~Qt::ItemIsUserCheckable);
        item->setToolTip(tr("Bound by the profile"));
    } else {
        if (wasFromProfile) {
            item->setCheckState(Qt::Unchecked);
        }
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setToolTip(QString());
    }
}

void NewSandboxDialog::refreshOrigins()
{
    auto fromList = [](bool yours, bool profiles) {
        return yours ? ValueOrigin::User : profiles ? ValueOrigin::Profile : ValueOrigin::Default;
    };
    hostsOrigin_->setOrigin(fromList(hosts_->count() > 0, !profileHosts_.isEmpty()));
    bool yourSecret = false;
    for (int row = 0; row < secrets_->count(); ++row) {
        const QListWidgetItem* item = secrets_->item(row);
        yourSecret |= item->checkState() == Qt::Checked && !profileSecrets_.contains(item->text());
    }
    secretsOrigin_->setOrigin(fromList(yourSecret, !profileSecrets_.isEmpty()));
    sudoOrigin_->setOrigin(sudo_->isChecked() ? ValueOrigin::User : ValueOrigin::Default);
    dockerOrigin_->setOrigin(docker_->isChecked() ? ValueOrigin::User : ValueOrigin::Default);
    yoloOrigin_->setOrigin(yolo_->isChecked() ? ValueOrigin::User : ValueOrigin::Default);
}

void NewSandboxDialog::markUser(OriginBadge* badge)
{
    badge->setOrigin(ValueOrigin::User);
    updatePreview();
}

RunChoices NewSandboxDialog::choices() const
{
    RunChoices choices;
    choices.image = image_->currentText().trimmed();
    choices.workspace = workspace_->text().trimmed();
    choices.profile = profile_->currentText().trimmed();
    for (int row = 0; row < hosts_->count(); ++row) {
        choices.allowHosts << hosts_->item(row)->text();
    }
    for (int row = 0; row < secrets_->count(); ++row) {
        const QListWidgetItem* item = secrets_->item(row);
        // A profile's secret comes from --profile; only the user's are written.
        if (item->checkState() == Qt::Checked && !profileSecrets_.contains(item->text())) {
            choices.secrets << item->text();
        }
    }
    choices.sudo = sudo_->isChecked();
    choices.docker = docker_->isChecked();
    choices.yolo = yolo_->isChecked();
    choices.net = net_->currentData().toString();
    choices.netOrigin = netOrigin_->origin();
    choices.ttl = ttl_->text().trimmed();
    choices.ttlOrigin = ttlOrigin_->origin();
    choices.name = name_->text().trimmed();
    choices.command = splitShellWords(command_->text()).value_or(QStringList());
    return choices;
}

QString NewSandboxDialog::commandPreview() const
{
    return shellCommandLine(QStringList{QStringLiteral("moat")} + moatRunArguments(choices()));
}

void NewSandboxDialog::updatePreview()
{
    const bool yolo = yolo_->isChecked();
    yoloWarning_->setVisible(yolo);
    for (QWidget* subsumed : std::initializer_list<QWidget*>{hosts_, newHost_, hostsOrigin_, sudo_, sudoOrigin_, docker_,
                                                              dockerOrigin_, net_, netOrigin_}) {
        subsumed->setEnabled(!yolo);
    }
    refreshOrigins();
    preview_->setPlainText(commandPreview());
    QString problem;
    if (!profileValid_) {
        problem = tr("The profile cannot be used: see the message under it.");
    } else if (!splitShellWords(command_->text())) {
        problem = tr("The command has a quote that is not closed, or ends in a lone backslash.");
    } else if (command_->text().trimmed().isEmpty()) {
        problem = tr("Give the command to run.");
    }
    problem_->setText(problem);
    start_->setEnabled(problem.isEmpty());
}

void NewSandboxDialog::copyCommand()
{
    QApplication::clipboard()->setText(commandPreview());
}

void NewSandboxDialog::chooseWorkspace()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Workspace folder"), workspace_->text());
    if (!folder.isEmpty()) {
        workspace_->setText(folder);
    }
}

void NewSandboxDialog::chooseImageFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Root file system folder"));
    if (!folder.isEmpty()) {
        image_->setCurrentText(folder);
    }
}

}  // namespace moat::gui
