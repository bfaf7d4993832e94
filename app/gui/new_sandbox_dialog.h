// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "run_choices.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPlainTextEdit;
class QPushButton;

namespace moat::gui {

class MoatdConnection;
class OriginBadge;

// Pick an image, a workspace, an agent and the powers it gets. Beside the
// toggles, the `moat run ...` command they amount to updates live and can be
// copied: the choice sits where the user can see it, and starting runs
// exactly that command (SessionLauncher). Each toggle says where its value
// came from (default, profile, you) and can be reset.
class NewSandboxDialog : public QDialog
{
    Q_OBJECT
public:
    explicit NewSandboxDialog(MoatdConnection* moatd, QWidget* parent = nullptr);

    RunChoices choices() const;
    // "moat run ...", one line, as a shell reads it.
    QString commandPreview() const;

signals:
    void startRequested(const moat::gui::RunChoices& choices);

private:
    void buildForm();
    void loadSecretNames();
    void applyPreset(int index);
    void applyProfile();
    void markUser(OriginBadge* badge);
    // The profile's secrets are bound by --profile: checked, and not
    // uncheckable here (unchecking would not unbind them).
    void applyProfileSecrets();
    void showProfileSecret(QListWidgetItem* item);
    // The origins that follow from what is shown: hosts, secrets, powers.
    void refreshOrigins();
    void updatePreview();
    void copyCommand();
    void chooseWorkspace();
    void chooseImageFolder();

    MoatdConnection* moatd_;
    QComboBox* image_ = nullptr;
    QLineEdit* workspace_ = nullptr;
    QComboBox* preset_ = nullptr;
    QComboBox* profile_ = nullptr;
    QLabel* profileSummary_ = nullptr;
    QLineEdit* command_ = nullptr;
    QListWidget* hosts_ = nullptr;
    OriginBadge* hostsOrigin_ = nullptr;
    QLineEdit* newHost_ = nullptr;
    QCheckBox* sudo_ = nullptr;
    OriginBadge* sudoOrigin_ = nullptr;
    QCheckBox* docker_ = nullptr;
    OriginBadge* dockerOrigin_ = nullptr;
    QComboBox* net_ = nullptr;
    OriginBadge* netOrigin_ = nullptr;
    QCheckBox* yolo_ = nullptr;
    OriginBadge* yoloOrigin_ = nullptr;
    QLabel* yoloWarning_ = nullptr;
    QListWidget* secrets_ = nullptr;
    OriginBadge* secretsOrigin_ = nullptr;
    QLineEdit* ttl_ = nullptr;
    OriginBadge* ttlOrigin_ = nullptr;
    QLineEdit* name_ = nullptr;
    QPlainTextEdit* preview_ = nullptr;
    QLabel* problem_ = nullptr;
    QPushButton* start_ = nullptr;
    // What the chosen profile sets (empty: nothing).
    QStringList profileHosts_;
    QString profileNet_;
    QString profileTtl_;
    QStringList profileSecrets_;
    bool profileValid_ = true;
    // Set while the dialog itself fills in a profile's or the default value.
    bool settingDefaults_ = false;
};

}  // namespace moat::gui
