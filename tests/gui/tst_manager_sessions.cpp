// SPDX-License-Identifier: Apache-2.0
// moat-manager's Sessions window against a real moatd on a private bus:
// a sandbox started from the New sandbox dialog runs (the very command of
// its preview) and shows in Sessions with its flags and a countdown; its
// terminal's output reaches the session's tab; renew moves the countdown;
// stop ends it; a moatd that goes away is reported and found again.

#include "main_window.h"
#include "moatd_connection.h"
#include "new_sandbox_dialog.h"
#include "output_pane.h"
#include "session_launcher.h"
#include "session_list_model.h"
#include "session_view.h"
#include "sessions_page.h"

#include "integrationfixture.h"
#include "moatdbus.h"
#include "own_account.h"
#include "rerun_as_ordinary_account.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDBusConnection>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace moat::gui;

class ManagerSessions : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();
    void aSandboxStartedFromTheDialogShowsInSessions();
    void renewMovesTheCountdownAndStopEndsIt();
    void aVanishedMoatdIsReportedAndFoundAgain();
    void theSameAsAnOrdinaryAccount();

private:
    QDBusConnection connectTo(const MoatdBus& bus);
    static const SessionRow* findByName(const SessionListModel& model, const QString& name);

    IntegrationFixture fixture_;
    int connections_ = 0;
};

void ManagerSessions::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void ManagerSessions::init()
{
    fixture_.renewWorkspaces();
}

void ManagerSessions::cleanupTestCase()
{
    fixture_.tearDown();
}

QDBusConnection ManagerSessions::connectTo(const MoatdBus& bus)
{
    return QDBusConnection::connectToBus(bus.address(), QStringLiteral("manager-test-%1").arg(++connections_));
}

const SessionRow* ManagerSessions::findByName(const SessionListModel& model, const QString& name)
{
    for (const SessionRow& row : model.rows()) {
        if (row.name == name) {
            return &row;
        }
    }
    return nullptr;
}

#define MOAT_ROOT_BUS(runner, bus)                                                 \
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty())   \
        QSKIP(qPrintable(missing));                                                \
    AccountRunner* runner = ownAccountRunner(fixture_);                            \
    if (runner == nullptr)                                                         \
        QSKIP("this process's own account has no runner here");                   \
    MoatdBus bus(runner);                                                          \
    {                                                                              \
        QString busError;                                                          \
        QVERIFY2(bus.start(&busError), qPrintable(busError));                      \
    }                                                                              \
    useEnvironmentOf(runner, bus)

void ManagerSessions::aSandboxStartedFromTheDialogShowsInSessions()
{
    MOAT_ROOT_BUS(runner, bus);
    MoatdConnection moatd(connectTo(bus));
    MainWindow window(&moatd);
    window.launcher()->setMoatProgram(fixture_.install().moat());
    window.show();
    moatd.connectNow();
    QTRY_VERIFY_WITH_TIMEOUT(moatd.isLinked(), 30000);
    QVERIFY2(bus.moatdPid() > 0, "moatd was not started by D-Bus activation");

    window.showNewSandboxDialog();
    NewSandboxDialog* dialog = window.newSandboxDialog();
    QVERIFY(dialog != nullptr);
    dialog->findChild<QLineEdit*>(QStringLiteral("workspace"))->setText(runner->workspace());
    dialog->findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("from-the-dialog"));
    dialog->findChild<QLineEdit*>(QStringLiteral("command"))
        ->setText(QStringLiteral("sh -c 'echo hello-from-the-sandbox; id -u; read typed; echo \"got:$typed\"; sleep 60'"));
    dialog->findChild<QCheckBox*>(QStringLiteral("sudo"))->setChecked(true);
    dialog->findChild<QLineEdit*>(QStringLiteral("newHost"))->setText(QStringLiteral("example.org"));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("addHost")), Qt::LeftButton);
    dialog->findChild<QLineEdit*>(QStringLiteral("ttl"))->setText(QStringLiteral("10m"));
    const QString preview = dialog->commandPreview();
    QVERIFY2(preview.contains(QLatin1String("--sudo")) && preview.contains(QLatin1String("--ttl 10m")),
             qPrintable(preview));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("start")), Qt::LeftButton);

    SessionListModel* sessions = window.sessions();
    QTRY_VERIFY_WITH_TIMEOUT(findByName(*sessions, QStringLiteral("from-the-dialog")) != nullptr &&
                                 findByName(*sessions, QStringLiteral("from-the-dialog"))->isRunning(),
                             30000);
    const SessionRow row = *findByName(*sessions, QStringLiteral("from-the-dialog"));
    // The flags moatd reports are the ones the dialog showed.
    QVERIFY2(row.flags.contains(QStringLiteral("sudo")), qPrintable(row.flags.join(QLatin1Char(' '))));
    QVERIFY2(row.flags.join(QLatin1Char(' ')).contains(QLatin1String("example.org")),
             qPrintable(row.flags.join(QLatin1Char(' '))));
    QCOMPARE(row.image, QStringLiteral("host"));
    const QString left = SessionListModel::timeLeftText(row.expires, QDateTime::currentDateTimeUtc());
    QVERIFY2(left.startsWith(QLatin1String("9m")) || left.startsWith(QLatin1String("10m")), qPrintable(left));

    // The search finds it by a flag; the table shows it.
    window.sessionsPage()->findChild<QLineEdit*>(QStringLiteral("sessionFilter"))->setText(QStringLiteral("sudo"));
    QCOMPARE(window.sessionsPage()->table()->model()->rowCount(), 1);
    window.sessionsPage()->findChild<QLineEdit*>(QStringLiteral("sessionFilter"))->setText(QStringLiteral("no-such"));
    QCOMPARE(window.sessionsPage()->table()->model()->rowCount(), 0);
    window.sessionsPage()->findChild<QLineEdit*>(QStringLiteral("sessionFilter"))->clear();

    // Its terminal: the output reaches the session's tab; sudo made it root inside.
    window.openSession(row.id);
    QTRY_VERIFY_WITH_TIMEOUT(window.launcher()->outputSoFar(row.name).contains("hello-from-the-sandbox"), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(window.launcher()->outputSoFar(row.name).contains("\n0\r"), 10000);
    QCOMPARE(window.tabs()->tabText(window.tabs()->currentIndex()), row.name);
    auto* view = qobject_cast<SessionView*>(window.tabs()->currentWidget());
    QVERIFY(view != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(view->outputPane()->plainText().contains(QLatin1String("hello-from-the-sandbox")), 10000);
    // A line typed into the Output tab reaches the command on its terminal.
    QVERIFY(view->outputPane()->inputLine()->isEnabled());
    QTest::keyClicks(view->outputPane()->inputLine(), QStringLiteral("typed-in-the-window"));
    QTest::keyClick(view->outputPane()->inputLine(), Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(view->outputPane()->plainText().contains(QLatin1String("got:typed-in-the-window")),
                             10000);

    QSignalSpy ended(window.launcher(), &SessionLauncher::finished);
    moatd.stopSession(row.id, [](const MoatdAnswer&) {});
    QTRY_VERIFY_WITH_TIMEOUT(!ended.isEmpty(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(findByName(*sessions, QStringLiteral("from-the-dialog"))->state ==
                                 QLatin1String("stopped"),
                             30000);
}

void ManagerSessions::renewMovesTheCountdownAndStopEndsIt()
{
    MOAT_ROOT_BUS(runner, bus);
    MoatdConnection moatd(connectTo(bus));
    MainWindow window(&moatd);
    window.launcher()->setMoatProgram(fixture_.install().moat());
    moatd.connectNow();
    QTRY_VERIFY_WITH_TIMEOUT(moatd.isLinked(), 30000);

    RunChoices choices;
    choices.workspace = runner->workspace();
    choices.name = QStringLiteral("short-lived");
    choices.ttl = QStringLiteral("5m");
    choices.ttlOrigin = ValueOrigin::User;
    choices.command = {QStringLiteral("sleep"), QStringLiteral("120")};
    QString error;
    QVERIFY2(window.launcher()->start(choices, &error), qPrintable(error));
    SessionListModel* sessions = window.sessions();
    QTRY_VERIFY_WITH_TIMEOUT(findByName(*sessions, choices.name) != nullptr &&
                                 findByName(*sessions, choices.name)->isRunning(),
                             30000);
    const QString id = findByName(*sessions, choices.name)->id;
    const QModelIndex timeLeft = sessions->index(
        static_cast<int>(std::distance(sessions->rows().begin(),
                                       std::find_if(sessions->rows().begin(), sessions->rows().end(),
                                                    [&](const SessionRow& r) { return r.id == id; }))),
        SessionListModel::TimeLeft);
    const QString before = timeLeft.data().toString();
    QVERIFY2(before.startsWith(QLatin1String("4m")) || before.startsWith(QLatin1String("5m")), qPrintable(before));
    // The countdown moves without asking moatd.
    QSignalSpy ticks(sessions, &QAbstractItemModel::dataChanged);
    QTRY_VERIFY_WITH_TIMEOUT(ticks.count() >= 2, 5000);

    window.sessionsPage()->renew(id, QStringLiteral("2h"));
    QTRY_VERIFY_WITH_TIMEOUT(
        SessionListModel::timeLeftText(findByName(*sessions, choices.name)->expires, QDateTime::currentDateTimeUtc())
            .startsWith(QLatin1String("1h 59m")),
        20000);

    QVERIFY(window.sessionsPage()->selectSession(id));
    moatd.stopSession(id, [](const MoatdAnswer&) {});
    QTRY_VERIFY_WITH_TIMEOUT(findByName(*sessions, choices.name)->state == QLatin1String("stopped"), 30000);
    // A past session cannot be stopped or renewed again from the page.
    QVERIFY(window.sessionsPage()->selectSession(id));
    QVERIFY(!window.sessionsPage()->findChild<QPushButton*>(QStringLiteral("stopSession"))->isEnabled());
    QVERIFY(!window.sessionsPage()->findChild<QPushButton*>(QStringLiteral("renewSession"))->isEnabled());
}

void ManagerSessions::aVanishedMoatdIsReportedAndFoundAgain()
{
    MOAT_ROOT_BUS(runner, bus);
    MoatdConnection moatd(connectTo(bus));
    MainWindow window(&moatd);
    moatd.connectNow();
    QTRY_VERIFY_WITH_TIMEOUT(moatd.isLinked(), 30000);
    QSignalSpy link(&moatd, &MoatdConnection::linkChanged);
    QVERIFY(bus.killMoatd());
    QTRY_VERIFY_WITH_TIMEOUT(!moatd.isLinked(), 10000);
    QVERIFY2(moatd.linkMessage().contains(QLatin1String("moatd")), qPrintable(moatd.linkMessage()));
    QCOMPARE(window.findChild<QLabel*>(QStringLiteral("moatdLink"))->text(), QStringLiteral("moatd: not connected"));
    // The next try activates a new moatd, and the window says so.
    QTRY_VERIFY_WITH_TIMEOUT(moatd.isLinked(), 20000);
    QVERIFY(bus.moatdPid() > 0);
    QCOMPARE(moatd.linkMessage(), QStringLiteral("Reconnected to moatd."));
    QCOMPARE(window.findChild<QLabel*>(QStringLiteral("moatdLink"))->text(), QStringLiteral("moatd: connected"));
}

// As root, the functions above run again in a copy of this program run as
// the ordinary test account, which drives its own window against its own
// moatd (the window must live in the process of the account it serves).
void ManagerSessions::theSameAsAnOrdinaryAccount()
{
    QString skip;
    const QString failed = rerunAsOrdinaryAccount(
        fixture_,
        {QStringLiteral("aSandboxStartedFromTheDialogShowsInSessions"),
         QStringLiteral("renewMovesTheCountdownAndStopEndsIt"), QStringLiteral("aVanishedMoatdIsReportedAndFoundAgain")},
        &skip);
    if (!skip.isEmpty()) {
        QSKIP(qPrintable(skip));
    }
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

QTEST_MAIN(ManagerSessions)
#include "tst_manager_sessions.moc"
