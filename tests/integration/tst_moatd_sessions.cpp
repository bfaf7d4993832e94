// SPDX-License-Identifier: Apache-2.0
// Sessions through moatd, end to end: the real moat CLI, a real private
// dbus-daemon that starts the real moatd by D-Bus activation, a real
// gnome-keyring, real supervisors and sandboxes. moat run's exit status and
// moat ps; two sessions side by side; stop and renew; logs --follow; a
// killed supervisor; moatd killed and restarted under a running session;
// the bus out of the sandbox's reach; 100 sessions without a leak; and
// moat run without a bus. As root and as an ordinary user.

#include "eventlog.h"
#include "integrationfixture.h"
#include "moatdbus.h"
#include "processtable.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QThread>

#include <signal.h>

#include <functional>

namespace {

int countEntries(const QString& dir)
{
    return static_cast<int>(QDir(dir).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot).size());
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

int parentOf(pid_t pid)
{
    for (const QByteArray& line : readAll(QStringLiteral("/proc/%1/status").arg(pid)).split('\n')) {
        if (line.startsWith("PPid:")) {
            return line.mid(5).trimmed().toInt();
        }
    }
    return 0;
}

}  // namespace

class MoatdSessions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void runThroughMoatdExitsWithTheCommandsStatus_data();
    void runThroughMoatdExitsWithTheCommandsStatus();
    void twoSessionsRunSideBySide_data();
    void twoSessionsRunSideBySide();
    void stopAndRenewReachTheSession_data();
    void stopAndRenewReachTheSession();
    void logsFollowWaitsForTheEnd_data();
    void logsFollowWaitsForTheEnd();
    void signalsReachTheCommandThroughMoatd_data();
    void signalsReachTheCommandThroughMoatd();
    void theTerminalFollowsThroughMoatd_data();
    void theTerminalFollowsThroughMoatd();
    void aKilledMoatStopsItsSession_data();
    void aKilledMoatStopsItsSession();
    void aKilledSupervisorShowsAsFailed_data();
    void aKilledSupervisorShowsAsFailed();
    void sessionsSurviveAMoatdRestart_data();
    void sessionsSurviveAMoatdRestart();
    void anotherAccountsMoatdRefusesAndMoatSaysSo();
    void lostMoatdAndSupervisorIsExit125_data();
    void lostMoatdAndSupervisorIsExit125();
    void nothingInsideReachesTheBus_data();
    void nothingInsideReachesTheBus();
    void hundredSessionsLeakNothing_data();
    void hundredSessionsLeakNothing();
    void withoutABusMoatRunsEmbedded_data();
    void withoutABusMoatRunsEmbedded();
    void stopAndRenewWithoutMoatd_data();
    void stopAndRenewWithoutMoatd();

private:
    int supervisorPid(AccountRunner* runner, const QString& id);

    IntegrationFixture fixture_;
};

void MoatdSessions::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void MoatdSessions::init()
{
    fixture_.renewWorkspaces();
}

void MoatdSessions::cleanupTestCase()
{
    fixture_.tearDown();
}

#define MOAT_START_BUS(runner, bus)                                      \
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) \
        QSKIP(qPrintable(missing));                                      \
    MoatdBus bus(runner);                                                \
    {                                                                    \
        QString busError;                                                \
        QVERIFY2(bus.start(&busError), qPrintable(busError));            \
    }

int MoatdSessions::supervisorPid(AccountRunner* runner, const QString& id)
{
    const QJsonObject status =
        QJsonDocument::fromJson(readAll(runner->sessionDir(id) + QStringLiteral("/status.json"))).object();
    return status.value(QLatin1String("supervisor_pid")).toInt();
}

void MoatdSessions::runThroughMoatdExitsWithTheCommandsStatus_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::runThroughMoatdExitsWithTheCommandsStatus()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    QCOMPARE(bus.moatdPid(), 0);  // not yet: activation starts it
    RunOptions options;
    options.environment = bus.environment();
    // --json-events names a file of the caller's: that session runs embedded.
    const QString events = runner->workspace() + QStringLiteral("/events.jsonl");
    const ProcessResult mirrored = runner->moatShell({QStringLiteral("--json-events"), events}, QStringLiteral("exit 3"),
                                                     options);
    QVERIFY2(mirrored.exitCode == 3 && QFile(events).size() > 0, qPrintable(mirrored.describe()));
    QCOMPARE(bus.moatdPid(), 0);
    const ProcessResult run = runner->moatShell({QStringLiteral("--name"), QStringLiteral("seven")},
                                                QStringLiteral("echo out; echo err >&2; exit 7"), options);
    QVERIFY2(run.exitCode == 7, qPrintable(run.describe()));
    QCOMPARE(run.stdOut(), QStringLiteral("out\n"));
    QVERIFY2(run.stdErr().contains(QLatin1String("err")), qPrintable(run.describe()));
    QVERIFY2(bus.moatdPid() > 0, "moatd was not started by D-Bus activation: moat ran embedded");

    const QJsonObject session = bus.session(QStringLiteral("seven"));
    QVERIFY2(!session.isEmpty(), "moat ps --all --json does not list the session");
    QCOMPARE(session.value(QLatin1String("state")).toString(), QStringLiteral("exited"));
    QCOMPARE(session.value(QLatin1String("exit_code")).toInt(), 7);
    QCOMPARE(session.value(QLatin1String("image")).toString(), QStringLiteral("host"));
    for (const char* field : {"id", "name", "state", "image", "flags", "started", "expires", "exit_code"}) {
        QVERIFY2(session.contains(QLatin1String(field)), field);
    }
    QVERIFY(session.value(QLatin1String("flags")).toArray().contains(QStringLiteral("net:proxy")));
    // A past session is not running: plain `moat ps` leaves it out.
    const ProcessResult running =
        runner->moat({QStringLiteral("ps"), QStringLiteral("--json")}, options);
    QVERIFY2(running.succeeded() && QJsonDocument::fromJson(running.out).array().isEmpty(),
             qPrintable(running.describe()));
}

void MoatdSessions::twoSessionsRunSideBySide_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::twoSessionsRunSideBySide()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    auto first = bus.startSession({QStringLiteral("--name"), QStringLiteral("left")},
                              QStringLiteral("echo left-ready; sleep 600"));
    auto second = bus.startSession({QStringLiteral("--name"), QStringLiteral("right")},
                               QStringLiteral("echo right-ready; sleep 600"));
    QVERIFY2(first->waitForOutput("left-ready", 30000), first->output().constData());
    QVERIFY2(second->waitForOutput("right-ready", 30000), second->output().constData());
    QVERIFY(bus.waitForState(QStringLiteral("left"), QStringLiteral("running")));
    QVERIFY(bus.waitForState(QStringLiteral("right"), QStringLiteral("running")));

    RunOptions options;
    options.environment = bus.environment();
    const ProcessResult ps = runner->moat({QStringLiteral("ps"), QStringLiteral("--json")}, options);
    QCOMPARE(QJsonDocument::fromJson(ps.out).array().size(), 2);
    // Both supervisors are moatd's children, not moat's.
    const QString left = bus.session(QStringLiteral("left")).value(QLatin1String("id")).toString();
    const QString right = bus.session(QStringLiteral("right")).value(QLatin1String("id")).toString();
    const pid_t moatd = bus.moatdPid();
    QVERIFY(moatd > 0);
    QCOMPARE(parentOf(supervisorPid(runner, left)), moatd);
    QCOMPARE(parentOf(supervisorPid(runner, right)), moatd);

    // Stopping one leaves the other running.
    const ProcessResult stop = runner->moat({QStringLiteral("stop"), left}, options);
    QVERIFY2(stop.succeeded(), qPrintable(stop.describe()));
    QVERIFY2(first->waitForOutput("EXIT=", 20000), first->output().constData());
    QVERIFY(bus.waitForState(QStringLiteral("left"), QStringLiteral("stopped")));
    QCOMPARE(bus.session(QStringLiteral("right")).value(QLatin1String("state")).toString(),
             QStringLiteral("running"));
    QVERIFY(second->isRunning());
    QVERIFY2(runner->moat({QStringLiteral("stop"), QStringLiteral("right")}, options).succeeded(), "stop by name");
    QVERIFY2(second->waitForOutput("EXIT=", 20000), second->output().constData());
}

void MoatdSessions::stopAndRenewReachTheSession_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::stopAndRenewReachTheSession()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    auto session = bus.startSession({QStringLiteral("--name"), QStringLiteral("short"),
                                              QStringLiteral("--ttl"), QStringLiteral("4s")},
                                QStringLiteral("echo ready; sleep 600"));
    QVERIFY2(session->waitForOutput("ready", 30000), session->output().constData());
    const QString id = bus.session(QStringLiteral("short")).value(QLatin1String("id")).toString();
    QVERIFY(!id.isEmpty());
    RunOptions options;
    options.environment = bus.environment();
    // By a unique prefix of its id.
    const ProcessResult renew =
        runner->moat({QStringLiteral("renew"), id.left(8), QStringLiteral("--ttl"), QStringLiteral("2m")}, options);
    QVERIFY2(renew.succeeded(), qPrintable(renew.describe()));
    QThread::sleep(6);  // past the original --ttl 4s
    QVERIFY2(session->isRunning(), session->output().constData());
    QCOMPARE(bus.session(QStringLiteral("short")).value(QLatin1String("state")).toString(),
             QStringLiteral("running"));
    const ProcessResult logs = runner->moat({QStringLiteral("logs"), id, QStringLiteral("--json")}, options);
    QVERIFY2(logs.succeeded() && logs.out.contains("\"ttl.renew\""), qPrintable(logs.describe()));
    QVERIFY2(!logs.out.contains("\"ttl.expire\""), qPrintable(logs.describe()));

    const ProcessResult stop = runner->moat({QStringLiteral("stop"), id}, options);
    QVERIFY2(stop.succeeded(), qPrintable(stop.describe()));
    QVERIFY2(session->waitForOutput("EXIT=", 20000), session->output().constData());
    QVERIFY(bus.waitForState(QStringLiteral("short"), QStringLiteral("stopped")));
    const ProcessResult stopped = runner->moat({QStringLiteral("logs"), id, QStringLiteral("--json")}, options);
    QVERIFY2(stopped.out.contains("\"session.stop\"") && stopped.out.contains("\"session.end\""),
             qPrintable(stopped.describe()));

    // A session that has ended cannot be stopped or renewed again, and says so.
    const ProcessResult again = runner->moat({QStringLiteral("stop"), id}, options);
    QVERIFY2(again.exitCode == 125 && again.stdErr().contains(id.left(6)), qPrintable(again.describe()));
    const ProcessResult unknown = runner->moat({QStringLiteral("renew"), QStringLiteral("nosuchsession")}, options);
    QVERIFY2(unknown.exitCode == 125 && unknown.stdErr().contains(QLatin1String("nosuchsession")),
             qPrintable(unknown.describe()));
}

void MoatdSessions::logsFollowWaitsForTheEnd_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::logsFollowWaitsForTheEnd()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    auto session = bus.startSession({QStringLiteral("--name"), QStringLiteral("followed")},
                                QStringLiteral("echo ready; sleep 3; exit 4"));
    QVERIFY2(session->waitForOutput("ready", 30000), session->output().constData());
    RunOptions options;
    options.environment = bus.environment();
    options.timeoutMs = 30000;
    const ProcessResult follow =
        runner->moat({QStringLiteral("logs"), QStringLiteral("followed"), QStringLiteral("--follow")}, options);
    QVERIFY2(follow.succeeded(), qPrintable(follow.describe()));
    QVERIFY2(follow.elapsedMs > 1500, "logs --follow returned before the session ended");
    const QStringList lines = follow.stdOut().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(lines.first().contains(QLatin1String("session.start")), qPrintable(follow.describe()));
    QVERIFY2(lines.last().contains(QLatin1String("session.end")) && lines.last().contains(QLatin1String("exit_code=4")),
             qPrintable(follow.describe()));
    QVERIFY2(session->waitForOutput("EXIT=4", 10000), session->output().constData());
}

// The `moat run` (not the shell around it) started for the session named `name`.
static pid_t moatRunFor(const AccountRunner* runner, const QString& name)
{
    for (pid_t pid : ProcessTable::withExecutableIn(runner->install().dir())) {
        const QByteArray argv = ProcessTable::commandLine(pid);
        if (argv.startsWith(runner->install().moat().toUtf8() + '\0') && argv.contains("\0run\0") &&
            argv.contains('\0' + name.toUtf8() + '\0')) {
            return pid;
        }
    }
    return 0;
}

void MoatdSessions::signalsReachTheCommandThroughMoatd_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::signalsReachTheCommandThroughMoatd()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    auto session = bus.startSession({QStringLiteral("--name"), QStringLiteral("signalled")},
                                    QStringLiteral("trap 'echo got-usr1' USR1; trap 'echo got-int; exit 9' INT; "
                                                   "echo ready; while :; do sleep 0.1; done"));
    QVERIFY2(session->waitForOutput("ready", 30000), session->output().constData());
    const pid_t moat = moatRunFor(runner, QStringLiteral("signalled"));
    QVERIFY(moat > 0);
    // moat is not the supervisor here: it forwards what it gets to moatd.
    const QString id = bus.session(QStringLiteral("signalled")).value(QLatin1String("id")).toString();
    QVERIFY(supervisorPid(runner, id) != moat);
    QCOMPARE(::kill(moat, SIGUSR1), 0);
    QVERIFY2(session->waitForOutput("got-usr1", 10000), session->output().constData());
    QCOMPARE(::kill(moat, SIGINT), 0);
    QVERIFY2(session->waitForOutput("EXIT=", 10000), session->output().constData());
    QVERIFY2(session->output().contains("got-int") && session->output().contains("EXIT=9"),
             session->output().constData());
}

void MoatdSessions::theTerminalFollowsThroughMoatd_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::theTerminalFollowsThroughMoatd()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    // The supervisor holds the terminal moat handed to moatd; a resize of
    // it reaches the command (moat passes SIGWINCH on to the supervisor).
    const QString watcher = QStringLiteral(
        "import os, signal, sys, time\n"
        "def changed(*_):\n"
        "    size = os.get_terminal_size(0)\n"
        "    print('resized %d %d' % (size.lines, size.columns), flush=True)\n"
        "    sys.exit(5)\n"
        "signal.signal(signal.SIGWINCH, changed)\n"
        "print('READY', os.ttyname(0), flush=True)\n"
        "time.sleep(10)\n"
        "sys.exit(3)\n");
    RunOptions options;
    options.environment = bus.environment();
    const ProcessResult inside = runner->underPty(
        {QStringLiteral("--expect"), QStringLiteral("READY"), QStringLiteral("--resize"), QStringLiteral("0.3:40x120")},
        runner->moatRunCommand({QStringLiteral("--name"), QStringLiteral("tty")},
                               {QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"), watcher}),
        options);
    QVERIFY2(inside.out.contains("READY /dev/pts/0") && inside.out.contains("resized 40 120"),
             qPrintable(inside.describe()));
    QVERIFY2(bus.moatdPid() > 0, "the session did not go through moatd");
    QCOMPARE(bus.session(QStringLiteral("tty")).value(QLatin1String("exit_code")).toInt(), 5);
}

void MoatdSessions::aKilledMoatStopsItsSession_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::aKilledMoatStopsItsSession()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    auto session = bus.startSession({QStringLiteral("--name"), QStringLiteral("orphan")},
                                    QStringLiteral("echo ready; sleep 600"));
    QVERIFY2(session->waitForOutput("ready", 30000), session->output().constData());
    const pid_t moat = moatRunFor(runner, QStringLiteral("orphan"));
    QVERIFY(moat > 0);
    // As in embedded mode, moat and its session live and die together.
    QCOMPARE(::kill(moat, SIGKILL), 0);
    QVERIFY2(bus.waitForState(QStringLiteral("orphan"), QStringLiteral("stopped")),
             qPrintable(QJsonDocument(bus.session(QStringLiteral("orphan"))).toJson()));
}

void MoatdSessions::aKilledSupervisorShowsAsFailed_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::aKilledSupervisorShowsAsFailed()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    auto session = bus.startSession({QStringLiteral("--name"), QStringLiteral("victim")},
                                QStringLiteral("echo ready; sleep 600"));
    QVERIFY2(session->waitForOutput("ready", 30000), session->output().constData());
    const QString id = bus.session(QStringLiteral("victim")).value(QLatin1String("id")).toString();
    const pid_t supervisor = supervisorPid(runner, id);
    QVERIFY(supervisor > 0);
    QCOMPARE(::kill(supervisor, SIGKILL), 0);
    QVERIFY2(bus.waitForState(QStringLiteral("victim"), QStringLiteral("failed")),
             qPrintable(QJsonDocument(bus.session(QStringLiteral("victim"))).toJson()));
    // The sandbox died with its supervisor, and moat run ends with 125.
    QVERIFY2(session->waitForOutput("EXIT=", 20000), session->output().constData());
    QVERIFY2(session->output().contains("EXIT=125"), session->output().constData());
    QVERIFY(ProcessTable::withCommandLineContaining(QByteArrayLiteral("sleep\0" "600")).isEmpty() ||
            MoatdBus::waitUntil([] { return ProcessTable::withCommandLineContaining(QByteArrayLiteral("sleep\0" "600")).isEmpty(); },
                      5000));
}

void MoatdSessions::sessionsSurviveAMoatdRestart_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::sessionsSurviveAMoatdRestart()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    auto session = bus.startSession({QStringLiteral("--name"), QStringLiteral("survivor")},
                                QStringLiteral("echo ready; sleep 600"));
    QVERIFY2(session->waitForOutput("ready", 30000), session->output().constData());
    const QString id = bus.session(QStringLiteral("survivor")).value(QLatin1String("id")).toString();
    const pid_t supervisor = supervisorPid(runner, id);
    const pid_t first = bus.moatdPid();
    QVERIFY(first > 0 && supervisor > 0);

    QVERIFY(bus.killMoatd());
    QThread::msleep(500);
    // The session runs on without moatd, and its moat run stays with it.
    QVERIFY(ProcessTable::isAlive(supervisor));
    QVERIFY2(session->isRunning(), session->output().constData());
    QCOMPARE(bus.session(QStringLiteral("survivor")).value(QLatin1String("state")).toString(),
             QStringLiteral("running"));

    // The next call activates a new moatd, which re-attaches and stops it.
    RunOptions options;
    options.environment = bus.environment();
    const ProcessResult stop = runner->moat({QStringLiteral("stop"), id}, options);
    QVERIFY2(stop.succeeded(), qPrintable(stop.describe()));
    const pid_t second = bus.moatdPid();
    QVERIFY2(second > 0 && second != first, "moatd was not started again");
    QVERIFY2(session->waitForOutput("EXIT=", 20000), session->output().constData());
    QVERIFY(bus.waitForState(QStringLiteral("survivor"), QStringLiteral("stopped")));
    // moat run learnt the status from the session's record: sleep's SIGTERM.
    QVERIFY2(session->output().contains("EXIT=143"), session->output().constData());
    QVERIFY(!ProcessTable::isAlive(supervisor));
}

void MoatdSessions::lostMoatdAndSupervisorIsExit125_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::lostMoatdAndSupervisorIsExit125()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    auto session = bus.startSession({QStringLiteral("--name"), QStringLiteral("doubly-lost")},
                                    QStringLiteral("echo ready; sleep 600"));
    QVERIFY2(session->waitForOutput("ready", 30000), session->output().constData());
    const QString id = bus.session(QStringLiteral("doubly-lost")).value(QLatin1String("id")).toString();
    const pid_t supervisor = supervisorPid(runner, id);
    QVERIFY(supervisor > 0);
    // moatd first: moat run now waits on the supervisor itself...
    QVERIFY(bus.killMoatd());
    QThread::msleep(300);
    QVERIFY2(session->isRunning(), session->output().constData());
    // ...which dies without a word: the status cannot be known, and moat says so.
    QCOMPARE(::kill(supervisor, SIGKILL), 0);
    QVERIFY2(session->waitForOutput("EXIT=", 20000), session->output().constData());
    QVERIFY2(session->output().contains("EXIT=125") && session->output().contains("lost moatd") &&
                 session->output().contains(id.toUtf8()),
             session->output().constData());
}

void MoatdSessions::anotherAccountsMoatdRefusesAndMoatSaysSo()
{
    if (!fixture_.root() || !fixture_.user()) {
        QSKIP("needs the suite to run as root: root's moatd, called by the ordinary test user's moat");
    }
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    // root's bus and moatd, open to every account at the bus level: what
    // refuses the test user is moatd's check of the caller's uid, and moat
    // must say so (exit 125), not quietly run the session without moatd.
    MoatdBus bus(fixture_.root());
    QString error;
    QVERIFY2(bus.start(&error, MoatdBus::Access::AnyUser), qPrintable(error));
    RunOptions options;
    options.environment = {{QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), bus.openAddress()}};
    AccountRunner* user = fixture_.user();
    const ProcessResult run = user->moatShell({}, QStringLiteral("echo the session ran"), options);
    QVERIFY2(run.exitCode == 125 && !run.out.contains("the session ran") &&
                 run.stdErr().contains(QLatin1String("AccessDenied")) && run.stdErr().contains(QLatin1String("--embedded")),
             qPrintable(run.describe()));
    QVERIFY2(bus.moatdPid() > 0, "root's moatd was not the one that answered");
    const ProcessResult approvals = user->moat({QStringLiteral("approvals")}, options);
    QVERIFY2(approvals.exitCode == 125 && approvals.stdErr().contains(QLatin1String("AccessDenied")),
             qPrintable(approvals.describe()));
    // --embedded is the way around it.
    const ProcessResult embedded =
        user->moatShell({QStringLiteral("--embedded")}, QStringLiteral("echo the session ran"), options);
    QVERIFY2(embedded.succeeded() && embedded.out.contains("the session ran"), qPrintable(embedded.describe()));
}

void MoatdSessions::nothingInsideReachesTheBus_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::nothingInsideReachesTheBus()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    RunOptions options;
    options.environment = bus.environment();
    const QStringList listNames = {QStringLiteral("dbus-send"), QStringLiteral("--session"),
                                   QStringLiteral("--print-reply"), QStringLiteral("--dest=org.freedesktop.DBus"),
                                   QStringLiteral("/org/freedesktop/DBus"),
                                   QStringLiteral("org.freedesktop.DBus.ListActivatableNames")};
    // Outside, the bus answers and would start moatd for anyone asking.
    const ProcessResult outside = runner->host(listNames, options);
    QVERIFY2(outside.succeeded() && outside.out.contains("org.moat.Manager1"), qPrintable(outside.describe()));
    // Inside, with the address handed in on purpose, nothing answers.
    const ProcessResult inside = runner->moatRun(
        {QStringLiteral("--env"), QStringLiteral("DBUS_SESSION_BUS_ADDRESS")}, listNames, options);
    QVERIFY2(inside.exitCode != 0 && !inside.out.contains("org.moat.Manager1"), qPrintable(inside.describe()));
    QVERIFY2(bus.moatdPid() > 0, "the session did not go through moatd");
    const ProcessResult socket = runner->moatShell(
        {QStringLiteral("--env"), QStringLiteral("DBUS_SESSION_BUS_ADDRESS")},
        QStringLiteral("test -e %1/bus && echo visible || echo absent").arg(bus.runtimeDir()), options);
    QVERIFY2(socket.stdOut().trimmed() == QLatin1String("absent"), qPrintable(socket.describe()));
}

void MoatdSessions::hundredSessionsLeakNothing_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::hundredSessionsLeakNothing()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_START_BUS(runner, bus);
    RunOptions options;
    options.environment = bus.environment();
    // A first session starts moatd; what it holds then is its baseline.
    const ProcessResult warmup = runner->moatRun({}, {QStringLiteral("true")}, options);
    QVERIFY2(warmup.succeeded(), qPrintable(warmup.describe()));
    const pid_t moatd = bus.moatdPid();
    QVERIFY(moatd > 0);
    const QString fdDir = QStringLiteral("/proc/%1/fd").arg(moatd);
    const int fdsBefore = countEntries(fdDir);
    const int mountsBefore = static_cast<int>(readAll(QStringLiteral("/proc/self/mountinfo")).count('\n'));
    const int moatdMountsBefore = static_cast<int>(readAll(QStringLiteral("/proc/%1/mountinfo").arg(moatd)).count('\n'));

    for (int i = 0; i < 100; ++i) {
        if (i % 2 == 0) {
            const ProcessResult run = runner->moatRun({}, {QStringLiteral("true")}, options);
            QVERIFY2(run.succeeded(), qPrintable(run.describe()));
        } else {
            // Started, then stopped from outside.
            const QString name = QStringLiteral("loop-%1").arg(i);
            auto session = bus.startSession({QStringLiteral("--name"), name},
                                        QStringLiteral("echo ready; sleep 600"));
            QVERIFY2(session->waitForOutput("ready", 30000), session->output().constData());
            const ProcessResult stop = runner->moat({QStringLiteral("stop"), name}, options);
            QVERIFY2(stop.succeeded(), qPrintable(stop.describe()));
            QVERIFY2(session->waitForOutput("EXIT=", 20000), session->output().constData());
        }
    }
    QCOMPARE(bus.moatdPid(), moatd);
    // Supervisors and sandboxes are all gone, moatd holds what it held.
    QVERIFY2(MoatdBus::waitUntil(
                 [&] {
                     const auto left = ProcessTable::withExecutableIn(runner->install().dir());
                     return left.size() == 1 && left.first() == moatd;
                 },
                 10000),
             "supervisor processes outlived their sessions");
    QVERIFY2(MoatdBus::waitUntil([&] { return countEntries(fdDir) <= fdsBefore; }, 10000),
             qPrintable(QStringLiteral("moatd held %1 fds before, %2 after").arg(fdsBefore).arg(countEntries(fdDir))));
    QCOMPARE(static_cast<int>(readAll(QStringLiteral("/proc/self/mountinfo")).count('\n')), mountsBefore);
    QCOMPARE(static_cast<int>(readAll(QStringLiteral("/proc/%1/mountinfo").arg(moatd)).count('\n')),
             moatdMountsBefore);
    QVERIFY(ProcessTable::withCommandLineContaining(QByteArrayLiteral("sleep\0" "600")).isEmpty());
}

void MoatdSessions::withoutABusMoatRunsEmbedded_data()
{
    IntegrationFixture::addAccountColumn();
    QTest::addColumn<QString>("address");
    for (const char* account : {"root", "user"}) {
        // No bus at all; an address whose socket is gone.
        QTest::newRow(qPrintable(QStringLiteral("%1:no-bus").arg(QLatin1String(account))))
            << QString::fromLatin1(account) << QString();
        QTest::newRow(qPrintable(QStringLiteral("%1:stale-address").arg(QLatin1String(account))))
            << QString::fromLatin1(account) << QStringLiteral("unix:path=/nonexistent/moat-test-bus");
    }
}

void MoatdSessions::withoutABusMoatRunsEmbedded()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, address);
    RunOptions options;
    if (!address.isEmpty()) {
        options.environment.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), address);
    }
    // Embedded: moat became the session's supervisor, and no moatd ran.
    const ProcessResult run = runner->moatShell({}, QStringLiteral("exit 7"), options);
    QVERIFY2(run.exitCode == 7, qPrintable(run.describe()));
    QCOMPARE(MoatdBus(runner).moatdPid(), 0);  // no moatd of this account from the install
    const ProcessResult ps = runner->moat({QStringLiteral("ps"), QStringLiteral("--all"), QStringLiteral("--json")},
                                          options);
    QVERIFY2(ps.succeeded() && !QJsonDocument::fromJson(ps.out).array().isEmpty(), qPrintable(ps.describe()));
    // Approvals need moatd, and say so.
    const ProcessResult approvals = runner->moat({QStringLiteral("approvals")}, options);
    QVERIFY2(approvals.exitCode == 125 && approvals.stdErr().contains(QLatin1String("need moatd")),
             qPrintable(approvals.describe()));
}

void MoatdSessions::stopAndRenewWithoutMoatd_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void MoatdSessions::stopAndRenewWithoutMoatd()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // No bus: the session is embedded, and stop and renew go to its
    // supervisor's own socket.
    const MoatdBus none(runner);  // never started: no bus
    auto session = none.startSession({QStringLiteral("--name"), QStringLiteral("direct"), QStringLiteral("--ttl"),
                                      QStringLiteral("4s")},
                                     QStringLiteral("echo ready; sleep 600"), false);
    QVERIFY2(session->waitForOutput("ready", 30000), session->output().constData());
    const QString id = none.session(QStringLiteral("direct"), false).value(QLatin1String("id")).toString();
    QVERIFY(!id.isEmpty());
    const QString socket = runner->stateDir() + QStringLiteral("/run/supervisors/") + id + QStringLiteral(".sock");
    if (!MoatdBus::waitUntil([&] { return QFileInfo(socket).exists(); }, 3000)) {
        QSKIP("the supervisor binds no control socket in embedded mode yet (moat-supervisor's parent link, "
              "helper \"sup\"): moat stop and moat renew without moatd have nothing to talk to");
    }
    const ProcessResult renew =
        runner->moat({QStringLiteral("renew"), QStringLiteral("direct"), QStringLiteral("--ttl"), QStringLiteral("2m")});
    QVERIFY2(renew.succeeded(), qPrintable(renew.describe()));
    QThread::sleep(6);  // past the original --ttl 4s
    QVERIFY2(session->isRunning(), session->output().constData());
    const ProcessResult stop = runner->moat({QStringLiteral("stop"), id.left(6)});
    QVERIFY2(stop.succeeded(), qPrintable(stop.describe()));
    QVERIFY2(session->waitForOutput("EXIT=", 20000), session->output().constData());
    const ProcessResult logs = runner->moat({QStringLiteral("logs"), id, QStringLiteral("--json")});
    QVERIFY2(logs.out.contains("\"ttl.renew\"") && logs.out.contains("\"session.stop\"") &&
                 !logs.out.contains("\"ttl.expire\""),
             qPrintable(logs.describe()));
    QCOMPARE(none.session(QStringLiteral("direct"), false).value(QLatin1String("state")).toString(),
             QStringLiteral("stopped"));
    // Approvals cannot be answered without moatd, and say so.
    const ProcessResult approve = runner->moat({QStringLiteral("approve"), QStringLiteral("r-000000000000")});
    QVERIFY2(approve.exitCode == 125 && approve.stdErr().contains(QLatin1String("need moatd")),
             qPrintable(approve.describe()));
}

QTEST_GUILESS_MAIN(MoatdSessions)
#include "tst_moatd_sessions.moc"
