// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMainWindow>
#include <QPointer>

class QLabel;
class QTabWidget;

namespace moat::gui {

class ApprovalPrompt;
class ApprovalQueue;
class ApprovalTray;
class MoatdConnection;
class NewSandboxDialog;
class SessionLauncher;
class SessionListModel;
class SessionsPage;

// moat-manager's one main window: Sessions, Secrets, Policy and the Report
// card as tabs, each opened session as a tab of its own, and moatd's state
// in the status bar. Its size, position and open tab are remembered.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(MoatdConnection* moatd, QWidget* parent = nullptr);
    ~MainWindow() override;

    SessionsPage* sessionsPage() const { return sessionsPage_; }
    SessionListModel* sessions() const { return sessions_; }
    SessionLauncher* launcher() const { return launcher_; }
    QTabWidget* tabs() const { return tabs_; }
    ApprovalQueue* approvals() const { return approvals_; }
    ApprovalPrompt* approvalPrompt() const { return prompt_; }
    // The New sandbox dialog now open, or nullptr.
    NewSandboxDialog* newSandboxDialog() const;

    void showNewSandboxDialog();
    void openSession(const QString& sessionId);
    // Adds a fixed page (Secrets, Policy, Report card) after Sessions.
    void addPage(QWidget* page, const QString& title);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void showLink(bool linked, const QString& message);
    void restoreWindowState();

    MoatdConnection* moatd_;
    SessionListModel* sessions_ = nullptr;
    SessionLauncher* launcher_ = nullptr;
    SessionsPage* sessionsPage_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QLabel* link_ = nullptr;
    // Cleared by Qt when the dialog closes (it deletes itself) or dies with us.
    QPointer<NewSandboxDialog> dialog_;
    ApprovalQueue* approvals_ = nullptr;
    ApprovalPrompt* prompt_ = nullptr;
    ApprovalTray* tray_ = nullptr;
    int fixedPages_ = 1;
};

}  // namespace moat::gui
