// SPDX-License-Identifier: Apache-2.0
#include "main_window.h"

#include "app_icon.h"
#include "approval_prompt.h"
#include "approval_queue.h"
#include "approval_tray.h"
#include "moatd_connection.h"
#include "new_sandbox_dialog.h"
#include "output_pane.h"
#include "policy_page.h"
#include "pty_process.h"
#include "report_card_page.h"
#include "secrets_page.h"
#include "session_view.h"
#include "session_launcher.h"
#include "session_list_model.h"
#include "sessions_page.h"

#include <QCloseEvent>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>

namespace moat::gui {

MainWindow::MainWindow(MoatdConnection* moatd, QWidget* parent) : QMainWindow(parent), moatd_(moatd)
{
    setWindowTitle(tr("moat"));
    setWindowIcon(appIcon());
    setObjectName(QStringLiteral("mainWindow"));
    sessions_ = new SessionListModel(moatd_, this);
    launcher_ = new SessionLauncher(this);
    sessionsPage_ = new SessionsPage(moatd_, sessions_, this);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("mainTabs"));
    tabs_->setDocumentMode(true);
    tabs_->setTabsClosable(true);
    tabs_->addTab(sessionsPage_, tr("&Sessions"));
    // The fixed pages cannot be closed; opened sessions can.
    tabs_->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
    setCentralWidget(tabs_);

    link_ = new QLabel(this);
    link_->setObjectName(QStringLiteral("moatdLink"));
    link_->setAccessibleName(tr("Connection to moatd"));
    statusBar()->addPermanentWidget(link_);
    showLink(false, tr("Connecting to moatd…"));

    connect(moatd_, &MoatdConnection::linkChanged, this, &MainWindow::showLink);
    connect(sessionsPage_, &SessionsPage::newSandboxRequested, this, &MainWindow::showNewSandboxDialog);
    connect(sessionsPage_, &SessionsPage::openRequested, this, &MainWindow::openSession);
    connect(sessionsPage_, &SessionsPage::notice, this, [this](const QString& message) {
        statusBar()->showMessage(message, 10000);
    });
    connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (index >= fixedPages_) {
            QWidget* page = tabs_->widget(index);
            tabs_->removeTab(index);
            page->deleteLater();
        }
    });
    connect(launcher_, &SessionLauncher::finished, this, [this](const QString& name, int status) {
        statusBar()->showMessage(tr("%1 ended with status %2.").arg(name).arg(status), 10000);
        sessions_->refresh();
    });
    auto page = [this](QWidget* widget, const char* screenshotName, const QString& title) {
        widget->setProperty("screenshotName", QString::fromLatin1(screenshotName));
        addPage(widget, title);
    };
    page(new SecretsPage(moatd_, this), "secrets", tr("S&ecrets"));
    page(new PolicyPage(moatd_, this), "policy", tr("&Policy"));
    page(new ReportCardPage(this), "report-card", tr("&Report card"));

    approvals_ = new ApprovalQueue(moatd_, this);
    prompt_ = new ApprovalPrompt(approvals_);
    prompt_->setObjectName(QStringLiteral("approvalPrompt"));
    tray_ = new ApprovalTray(approvals_, moatd_->bus(), this);
    connect(tray_, &ApprovalTray::showPromptRequested, prompt_, &ApprovalPrompt::present);
    restoreWindowState();
}

MainWindow::~MainWindow()
{
    delete prompt_;
}

void MainWindow::addPage(QWidget* page, const QString& title)
{
    tabs_->insertTab(fixedPages_, page, title);
    tabs_->tabBar()->setTabButton(fixedPages_, QTabBar::RightSide, nullptr);
    ++fixedPages_;
}

void MainWindow::showLink(bool linked, const QString& message)
{
    link_->setText(linked ? tr("moatd: connected") : tr("moatd: not connected"));
    link_->setToolTip(message);
    statusBar()->showMessage(message, linked ? 5000 : 0);
}

NewSandboxDialog* MainWindow::newSandboxDialog() const
{
    return dialog_.data();
}

void MainWindow::showNewSandboxDialog()
{
    if (dialog_ != nullptr) {
        dialog_->raise();
        return;
    }
    dialog_ = new NewSandboxDialog(moatd_, this);
    dialog_->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog_, &NewSandboxDialog::startRequested, this, [this](const RunChoices& choices) {
        QString error;
        if (!launcher_->start(choices, &error)) {
            QMessageBox::warning(this, tr("The sandbox did not start"), error);
            return;
        }
        statusBar()->showMessage(tr("Starting %1…").arg(choices.name), 5000);
    });
    dialog_->show();
}

void MainWindow::openSession(const QString& sessionId)
{
    for (int index = fixedPages_; index < tabs_->count(); ++index) {
        if (auto* view = qobject_cast<SessionView*>(tabs_->widget(index)); view && view->sessionId() == sessionId) {
            tabs_->setCurrentIndex(index);
            return;
        }
    }
    const SessionRow* row = sessions_->rowFor(sessionId);
    const QString name = row != nullptr ? row->name : sessionId;
    auto* view = new SessionView(moatd_, sessionId, this);
    view->setTerminalSource(launcher_, name);
    OutputPane* output = view->outputPane();
    // Only a session started here has its terminal here; for the others the
    // output tab says so and the timeline is the record.
    PtyProcess* terminal = launcher_->terminalFor(name);
    output->setInputEnabled(terminal != nullptr && terminal->isRunning());
    if (terminal == nullptr) {
        output->appendOutput(tr("[This session was not started from this window: its terminal is where it was "
                                "started. Its timeline is in the next tab.]")
                                 .toUtf8() +
                             "\r\n");
    } else {
        output->appendOutput(launcher_->outputSoFar(name));
    }
    connect(launcher_, &SessionLauncher::output, output, [output, name](const QString& from, const QByteArray& bytes) {
        if (from == name) {
            output->appendOutput(bytes);
        }
    });
    connect(launcher_, &SessionLauncher::finished, output, [output, name](const QString& from) {
        if (from == name) {
            output->setInputEnabled(false);
        }
    });
    connect(output, &OutputPane::inputEntered, this, [this, name](const QByteArray& bytes) {
        if (PtyProcess* running = launcher_->terminalFor(name); running != nullptr) {
            running->write(bytes);
        }
    });
    // A tab's "&" would be an access key: a session's name is shown as it is.
    tabs_->setCurrentIndex(tabs_->addTab(view, QString(name).replace(QLatin1Char('&'), QLatin1String("&&"))));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    int running = 0;
    for (const SessionRow& row : sessions_->rows()) {
        const PtyProcess* terminal = launcher_->terminalFor(row.name);
        running += terminal != nullptr && terminal->isRunning() ? 1 : 0;
    }
    if (running > 0 &&
        QMessageBox::question(this, tr("Quit moat-manager"),
                              tr("%n session(s) started from this window will be stopped: their terminals are "
                                 "here. Quit anyway?",
                                 nullptr, running)) != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("mainWindow/showPast"), true);
    event->accept();
}

void MainWindow::restoreWindowState()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray())) {
        resize(1000, 640);
    }
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
}

}  // namespace moat::gui
