// SPDX-License-Identifier: Apache-2.0
// Screenshots of each moat-manager window, taken on a real X server (Xvfb,
// started by ctest through xvfb-run) while the windows show a real session
// of a real moatd on a private bus: Sessions, New sandbox, a session's
// timeline, network and output, an approval prompt for a request the agent
// really made, and the fixed pages. They are written to MOAT_SCREENSHOT_DIR
// (docs/screenshots/ in the source tree), which the README links.

#include "approval_prompt.h"
#include "approval_queue.h"
#include "main_window.h"
#include "moatd_connection.h"
#include "new_sandbox_dialog.h"
#include "report_card_page.h"
#include "session_launcher.h"
#include "session_list_model.h"
#include "session_view.h"

#include "integrationfixture.h"
#include "moatdbus.h"
#include "own_account.h"

#include <QApplication>
#include <QComboBox>
#include <QDBusConnection>
#include <QDir>
#include <QGuiApplication>
#include <QLineEdit>
#include <QPixmap>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace moat::gui;

class ManagerScreenshots : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void eachWindowOnARealSession();

private:
    bool save(QWidget* widget, const QString& name);

    IntegrationFixture fixture_;
    QString directory_;
};

void ManagerScreenshots::initTestCase()
{
    if (QGuiApplication::platformName() != QLatin1String("xcb")) {
        QSKIP("screenshots are taken on an X server: run under xvfb-run (apt-get install xvfb), as ctest does");
    }
    directory_ = qEnvironmentVariable("MOAT_SCREENSHOT_DIR");
    if (directory_.isEmpty()) {
        QSKIP("MOAT_SCREENSHOT_DIR is not set: nowhere to write the screenshots");
    }
    QVERIFY(QDir().mkpath(directory_));
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void ManagerScreenshots::cleanupTestCase()
{
    fixture_.tearDown();
}

bool ManagerScreenshots::save(QWidget* widget, const QString& name)
{
    // Let layouts settle and the X server draw before grabbing.
    QTest::qWait(300);
    const QPixmap shot = widget->grab();
    return !shot.isNull() && shot.save(directory_ + QLatin1Char('/') + name + QStringLiteral(".png"));
}

void ManagerScreenshots::eachWindowOnARealSession()
{
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    AccountRunner* runner = fixture_.root();
    if (runner == nullptr) {
        QSKIP("the windows are driven in this process, which must be root to own a test bus");
    }
    MoatdBus bus(runner);
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    useEnvironmentOf(runner, bus);

    MoatdConnection moatd(QDBusConnection::connectToBus(bus.address(), QStringLiteral("screenshots")));
    MainWindow window(&moatd);
    window.launcher()->setMoatProgram(fixture_.install().moat());
    window.resize(1100, 620);
    window.show();
    moatd.connectNow();
    QTRY_VERIFY_WITH_TIMEOUT(moatd.isLinked(), 30000);

    // A past session and a running one that asks for one more host.
    RunChoices past;
    past.workspace = runner->workspace();
    past.name = QStringLiteral("tests-passed");
    past.command = {QStringLiteral("true")};
    QVERIFY2(window.launcher()->start(past, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(window.sessions()->rowCount() == 1 &&
                                 !window.sessions()->rows().first().isRunning(),
                             30000);
    RunChoices agent;
    agent.workspace = runner->workspace();
    agent.name = QStringLiteral("fix-issue-42");
    agent.allowHosts = {QStringLiteral("api.anthropic.com")};
    agent.ttl = QStringLiteral("2h");
    agent.ttlOrigin = ValueOrigin::User;
    agent.command = {QStringLiteral("sh"), QStringLiteral("-c"),
                     QStringLiteral("printf '\\033[1;32mready\\033[0m: reading the issue\\n'; ls; "
                                    "curl -s -o /dev/null https://example.com/; "
                                    "curl -s -m 120 -X POST -H 'Content-Type: application/json' --data "
                                    "'{\"allow_hosts\":[\"pypi.org\"],\"reason\":\"install the test "
                                    "dependencies with pip\"}' \"$MOAT_API/v1/requests\"; sleep 120")};
    QVERIFY2(window.launcher()->start(agent, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(window.sessions()->rowCount() == 2, 30000);
    QTRY_VERIFY2_WITH_TIMEOUT(window.approvals()->pendingCount() == 1,
                              window.launcher()->outputSoFar(agent.name).constData(), 30000);
    window.approvalPrompt()->hide();
    QVERIFY(save(&window, QStringLiteral("sessions")));

    window.showNewSandboxDialog();
    NewSandboxDialog* dialog = window.newSandboxDialog();
    auto* preset = dialog->findChild<QComboBox*>(QStringLiteral("preset"));
    preset->setCurrentIndex(preset->findData(QStringLiteral("claude")));
    dialog->findChild<QLineEdit*>(QStringLiteral("workspace"))->setText(QStringLiteral("/home/dev/src/project"));
    dialog->findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("claude-tests"));
    dialog->findChild<QLineEdit*>(QStringLiteral("ttl"))->setText(QStringLiteral("4h"));
    QVERIFY(save(dialog, QStringLiteral("new-sandbox")));
    dialog->close();

    const SessionRow* running = nullptr;
    for (const SessionRow& row : window.sessions()->rows()) {
        if (row.name == agent.name) {
            running = &row;
        }
    }
    QVERIFY(running != nullptr);
    window.openSession(running->id);
    auto* view = qobject_cast<SessionView*>(window.tabs()->currentWidget());
    QVERIFY(view != nullptr);
    QVERIFY(save(&window, QStringLiteral("session-output")));
    view->tabs()->setCurrentIndex(SessionView::TimelineTab);
    QTRY_VERIFY_WITH_TIMEOUT(view->timelineModel()->rowCount() > 3, 20000);
    QVERIFY(save(&window, QStringLiteral("session-timeline")));
    view->tabs()->setCurrentIndex(SessionView::NetworkTab);
    QVERIFY(save(&window, QStringLiteral("session-network")));

    window.approvalPrompt()->present();
    QVERIFY(save(window.approvalPrompt(), QStringLiteral("approval-prompt")));

    window.approvalPrompt()->hide();
    auto* reportCard = window.findChild<ReportCardPage*>();
    QVERIFY(reportCard != nullptr);
    reportCard->setMoatProgram(fixture_.install().moat());
    for (int page = 1; page < window.tabs()->count(); ++page) {
        const QString file = window.tabs()->widget(page)->property("screenshotName").toString();
        if (!file.isEmpty()) {
            window.tabs()->setCurrentIndex(page);
            // The report card shows the probes' grades once both have run.
            QTRY_VERIFY_WITH_TIMEOUT(!reportCard->isRunning(), 180000);
            QVERIFY(save(&window, file));
        }
    }
    moatd.stopSession(running->id, [](const MoatdAnswer&) {});
}

QTEST_MAIN(ManagerScreenshots)
#include "tst_manager_screenshots.moc"
