// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "profile_rule_writer.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace moat::gui {

// The confirmation for "Allow this next time": which profile gets the rule,
// and the exact text the profile file will hold, before anything is
// written. Writes only on "Write to profile".
class AllowRuleDialog : public QDialog
{
    Q_OBJECT
public:
    // flag: e.g. "--allow-host example.com:8443"; profileDir: the user's
    // profiles; profiles: their names (the first is chosen).
    AllowRuleDialog(const QString& flag, const QString& profileDir, const QStringList& profiles,
                    QWidget* parent = nullptr);
    // hosts: HOST[:PORT] each, added together.
    AllowRuleDialog(const QStringList& hosts, const QString& profileDir, const QStringList& profiles,
                    QWidget* parent = nullptr);

    void setProfileName(const QString& name);
    // The profile is given (the session's) and cannot be changed here.
    void lockProfile(const QString& name);
    QString profileName() const;
    // The file's text as it will be written, or "" when it cannot be.
    QString previewText() const;
    QString message() const;
    const ProfileRuleWriter::Plan& plan() const { return plan_; }
    QPushButton* writeButton() const { return write_; }

    // Writes the rule; on failure says why (message()) and stays open.
    void accept() override;

private:
    void refresh();

    QStringList hosts_;
    ProfileRuleWriter writer_;
    ProfileRuleWriter::Plan plan_;
    QComboBox* profile_;
    QLabel* message_;
    QPlainTextEdit* preview_;
    QPushButton* write_;
};

}  // namespace moat::gui
