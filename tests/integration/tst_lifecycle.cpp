// SPDX-License-Identifier: Apache-2.0
// A session's life from the outside: exit statuses (CLI.md), failures that
// leave nothing behind, the time limit, the records (hash-chained events the
// agent cannot touch), the agent's own home, and refusing to start without a
// kernel layer unless --allow-degraded says so.

#include "eventlog.h"
#include "hostsnapshot.h"
#include "integrationfixture.h"
#include "processtable.h"

#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>
#include <QThread>

namespace {

// The host uid an agent started by root runs as (ARCHITECTURE.md).
constexpr uint kRootAgentHostUid = 2147418112;

QStringList strings(const QJsonValue& value)
{
    QStringList list;
    for (const QJsonValue& item : value.toArray()) {
        list.append(item.toString());
    }
    return list;
}

QJsonObject readJsonObject(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString randomName(const char* prefix)
{
    return QStringLiteral("%1-%2").arg(QLatin1String(prefix)).arg(QRandomGenerator::system()->generate(), 0, 16);
}

}  // namespace

class Lifecycle : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void exitStatusFollowsContract_data();
    void exitStatusFollowsContract();
    void failedStartsLeaveNothingBehind_data();
    void failedStartsLeaveNothingBehind();
    void jsonEventsRecordTheSession_data();
    void jsonEventsRecordTheSession();
    void sessionStartRecordsEveryWideningFlag_data();
    void sessionStartRecordsEveryWideningFlag();
    void sessionRecordsAreOutOfTheAgentsReach_data();
    void sessionRecordsAreOutOfTheAgentsReach();
    void agentHomeIsPrivateAndPersists_data();
    void agentHomeIsPrivateAndPersists();
    void ttlStopsTheSession_data();
    void ttlStopsTheSession();
    void ttlKillsACommandThatIgnoresTerm_data();
    void ttlKillsACommandThatIgnoresTerm();
    void missingLayerRefusesToStart_data();
    void missingLayerRefusesToStart();
    void allowDegradedStartsAndRecordsIt_data();
    void allowDegradedStartsAndRecordsIt();

private:
    QStringList denied(const QString& layers, const QStringList& moatRun) const;
    IntegrationFixture fixture_;
};

void Lifecycle::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void Lifecycle::init()
{
    fixture_.renewWorkspaces();
}

void Lifecycle::cleanupTestCase()
{
    fixture_.tearDown();
}

QStringList Lifecycle::denied(const QString& layers, const QStringList& moatRun) const
{
    return QStringList{fixture_.install().tool(QStringLiteral("deny-syscalls")), layers, QStringLiteral("--")} +
           moatRun;
}

void Lifecycle::exitStatusFollowsContract_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QStringList>("runOptions");
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<int>("expected");
    QTest::addColumn<QString>("mentions");  // for 125: what the message must name

    const QStringList sh{QStringLiteral("/bin/sh"), QStringLiteral("-c")};
    const QStringList truth{QStringLiteral("/bin/true")};
    for (const char* account : {"root", "user"}) {
        const QString a = QString::fromLatin1(account);
        QTest::addRow("%s: status 0", account) << a << QStringList{} << truth << 0 << QString();
        QTest::addRow("%s: status 42", account) << a << QStringList{} << sh + QStringList{QStringLiteral("exit 42")}
                                                << 42 << QString();
        QTest::addRow("%s: SIGKILL is 137", account)
            << a << QStringList{} << sh + QStringList{QStringLiteral("kill -KILL $$")} << 137 << QString();
        QTest::addRow("%s: SIGTERM is 143", account)
            << a << QStringList{} << sh + QStringList{QStringLiteral("kill -TERM $$")} << 143 << QString();
        QTest::addRow("%s: SIGSEGV is 139", account)
            << a << QStringList{} << sh + QStringList{QStringLiteral("kill -SEGV $$")} << 139 << QString();
        QTest::addRow("%s: not executable is 126", account)
            << a << QStringList{} << QStringList{QStringLiteral("/etc/passwd")} << 126 << QString();
        QTest::addRow("%s: a directory is 126", account)
            << a << QStringList{} << QStringList{QStringLiteral("/tmp")} << 126 << QString();
        QTest::addRow("%s: missing path is 127", account)
            << a << QStringList{} << QStringList{QStringLiteral("/nonexistent/program")} << 127 << QString();
        QTest::addRow("%s: not on PATH is 127", account)
            << a << QStringList{} << QStringList{QStringLiteral("moat-it-no-such-command")} << 127 << QString();
        QTest::addRow("%s: unknown flag is 125", account)
            << a << QStringList{QStringLiteral("--no-such-flag")} << truth << 125 << QStringLiteral("--no-such-flag");
        QTest::addRow("%s: missing workspace is 125", account)
            << a << QStringList{QStringLiteral("--workspace"), QStringLiteral("/nonexistent/moat-it")} << truth << 125
            << QStringLiteral("--workspace");
        QTest::addRow("%s: --docker is 125", account)
            << a << QStringList{QStringLiteral("--docker")} << truth << 125 << QStringLiteral("--docker");
        QTest::addRow("%s: bad --net is 125", account)
            << a << QStringList{QStringLiteral("--net"), QStringLiteral("sideways")} << truth << 125
            << QStringLiteral("--net");
        QTest::addRow("%s: bad --ttl is 125", account)
            << a << QStringList{QStringLiteral("--ttl"), QStringLiteral("soonish")} << truth << 125
            << QStringLiteral("--ttl");
        QTest::addRow("%s: bad --allow-degraded is 125", account)
            << a << QStringList{QStringLiteral("--allow-degraded=everything")} << truth << 125
            << QStringLiteral("--allow-degraded");
        QTest::addRow("%s: missing image is 125", account)
            << a << QStringList{QStringLiteral("--image"), QStringLiteral("/nonexistent/rootfs")} << truth << 125
            << QStringLiteral("--image");
        QTest::addRow("%s: no command is 125", account) << a << QStringList{} << QStringList{} << 125 << QString();
    }
}

void Lifecycle::exitStatusFollowsContract()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QStringList, runOptions);
    QFETCH(QStringList, command);
    QFETCH(int, expected);
    QFETCH(QString, mentions);

    const ProcessResult result = command.isEmpty() ? runner->moat(QStringList{QStringLiteral("run")} + runOptions)
                                                   : runner->moatRun(runOptions, command);
    QVERIFY2(result.exitCode == expected, qPrintable(result.describe()));
    if (expected == 125) {
        // One paragraph a person can act on, not a trace or a bare code.
        const QString message = result.stdErr();
        QVERIFY2(message.startsWith(QLatin1String("moat: ")), qPrintable(result.describe()));
        QVERIFY2(!message.trimmed().contains(QLatin1String("\n\n")), qPrintable(result.describe()));
        QVERIFY2(message.trimmed().size() > 20, qPrintable(result.describe()));
        if (!mentions.isEmpty()) {
            QVERIFY2(message.contains(mentions), qPrintable(result.describe()));
        }
        QVERIFY2(result.out.isEmpty(), qPrintable(result.describe()));
    }
}

void Lifecycle::failedStartsLeaveNothingBehind_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QStringList>("runOptions");
    QTest::addColumn<QString>("denyLayers");
    for (const char* account : {"root", "user"}) {
        const QString a = QString::fromLatin1(account);
        QTest::addRow("%s: unknown flag", account) << a << QStringList{QStringLiteral("--no-such-flag")} << QString();
        QTest::addRow("%s: missing workspace", account)
            << a << QStringList{QStringLiteral("--workspace"), QStringLiteral("/nonexistent/moat-it")} << QString();
        QTest::addRow("%s: --docker", account) << a << QStringList{QStringLiteral("--docker")} << QString();
        QTest::addRow("%s: unlistable image", account) << a << QStringList{QStringLiteral("--image")} << QString();
        QTest::addRow("%s: kernel without Landlock", account) << a << QStringList{} << QStringLiteral("landlock");
        QTest::addRow("%s: kernel without seccomp", account) << a << QStringList{} << QStringLiteral("seccomp");
    }
}

void Lifecycle::failedStartsLeaveNothingBehind()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QStringList, runOptions);
    QFETCH(QString, denyLayers);
    if (runOptions == QStringList{QStringLiteral("--image")}) {
        // An image that passes the first checks (usr/ is reachable) and fails
        // later, while the sandbox is being built: its top cannot be listed.
        // Owned by root, so that no capability of the sandbox's own user
        // namespace applies to it while init sets up.
        if (::geteuid() != 0) {
            QSKIP("an image owned by root can only be made by root");
        }
        const QString image = runner->newDirectory(QStringLiteral("broken-image"));
        QVERIFY(QDir(image).mkpath(QStringLiteral("usr/bin")));
        QVERIFY(::chown(image.toLocal8Bit().constData(), 0, 0) == 0);
        QVERIFY(QFile::setPermissions(image, QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ExeGroup |
                                                 QFileDevice::ExeOther));
        runOptions.append(image);
    }
    const QStringList command{QStringLiteral("/bin/true")};
    const HostSnapshot before = HostSnapshot::take(fixture_.install().dir());
    const ProcessResult result = denyLayers.isEmpty()
                                     ? runner->moatRun(runOptions, command)
                                     : runner->host(denied(denyLayers, runner->moatRunCommand(runOptions, command)));
    QVERIFY2(result.exitCode == 125, qPrintable(result.describe()));
    const HostSnapshot after = HostSnapshot::take(fixture_.install().dir());
    const QStringList litter = after.newSince(before);
    QVERIFY2(litter.isEmpty(), qPrintable(litter.join(QLatin1Char('\n')) + QLatin1Char('\n') + result.describe()));
}

void Lifecycle::jsonEventsRecordTheSession_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Lifecycle::jsonEventsRecordTheSession()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString out = runner->newDirectory(QStringLiteral("events"));
    const QString file = out + QStringLiteral("/events.jsonl");
    const QString name = randomName("itest");
    const QStringList command{QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                              QStringLiteral("echo \"$MOAT_SESSION\"; exit 3")};
    const ProcessResult result =
        runner->moatRun({QStringLiteral("--json-events"), file, QStringLiteral("--name"), name,
                         QStringLiteral("--ttl"), QStringLiteral("10m"), QStringLiteral("--env"),
                         QStringLiteral("GREETING=hi")},
                        command);
    QVERIFY2(result.exitCode == 3, qPrintable(result.describe()));
    const QString session = result.stdOut().trimmed();
    QVERIFY2(!session.isEmpty(), qPrintable(result.describe()));

    const EventLog log = EventLog::read(file);
    QVERIFY2(log.isReadable(), qPrintable(file));
    QVERIFY2(log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    const QStringList types = log.types();
    QVERIFY2(types.size() >= 3, qPrintable(types.join(QLatin1Char(','))));
    QCOMPARE(types.first(), QStringLiteral("session.start"));
    QCOMPARE(types.last(), QStringLiteral("session.end"));
    QVERIFY2(types.contains(QStringLiteral("exec")), qPrintable(types.join(QLatin1Char(','))));
    for (int i = 0; i < log.events().size(); ++i) {
        const QJsonObject& event = log.events().at(i);
        QCOMPARE(event.value(QStringLiteral("seq")).toInteger(), i + 1);
        QCOMPARE(event.value(QStringLiteral("session")).toString(), session);
        QVERIFY(!event.value(QStringLiteral("ts")).toString().isEmpty());
        QVERIFY(event.value(QStringLiteral("data")).isObject());
    }

    const QJsonObject start = log.first(QStringLiteral("session.start")).value(QStringLiteral("data")).toObject();
    const QStringList flags = strings(start.value(QStringLiteral("flags")));
    for (const char* flag : {"net:proxy", "ttl:10m", "env:GREETING"}) {
        QVERIFY2(flags.contains(QLatin1String(flag)), qPrintable(flags.join(QLatin1Char(','))));
    }
    QVERIFY2(!flags.contains(QStringLiteral("sudo")), qPrintable(flags.join(QLatin1Char(','))));
    const QJsonObject landlock = start.value(QStringLiteral("landlock")).toObject();
    QVERIFY2(landlock.value(QStringLiteral("abi")).toInt() >= 1, qPrintable(QJsonDocument(start).toJson()));
    QVERIFY2(landlock.value(QStringLiteral("fs")).toInteger() != 0, qPrintable(QJsonDocument(start).toJson()));
    QCOMPARE(start.value(QStringLiteral("seccomp")).toBool(), true);
    QVERIFY(start.value(QStringLiteral("degraded")).isArray());
    QCOMPARE(start.value(QStringLiteral("degraded")).toArray().size(), 0);
    const QJsonObject agent = start.value(QStringLiteral("agent")).toObject();
    if (runner->account().isRoot()) {
        QCOMPARE(static_cast<uint>(agent.value(QStringLiteral("host_uid")).toInteger()), kRootAgentHostUid);
        QCOMPARE(agent.value(QStringLiteral("user")).toString(), QStringLiteral("agent"));
    } else {
        QCOMPARE(static_cast<uint>(agent.value(QStringLiteral("host_uid")).toInteger()),
                 static_cast<uint>(runner->account().uid()));
        QCOMPARE(agent.value(QStringLiteral("user")).toString(), runner->account().name());
    }

    const QJsonObject exec = log.first(QStringLiteral("exec")).value(QStringLiteral("data")).toObject();
    QCOMPARE(strings(exec.value(QStringLiteral("argv"))), command);
    const QJsonObject end = log.first(QStringLiteral("session.end")).value(QStringLiteral("data")).toObject();
    QCOMPARE(end.value(QStringLiteral("exit_code")).toInt(), 3);
    QCOMPARE(end.value(QStringLiteral("reason")).toString(), QStringLiteral("exited"));

    // The state directory keeps the same record, plus the spec and status.
    const QString dir = runner->sessionDir(session);
    const EventLog kept = EventLog::read(dir + QStringLiteral("/events.jsonl"));
    QVERIFY2(kept.chainProblem().isEmpty(), qPrintable(kept.chainProblem()));
    QCOMPARE(kept.types(), types);
    QVERIFY(QFileInfo::exists(dir + QStringLiteral("/spec.json")));
    const QJsonObject status = readJsonObject(dir + QStringLiteral("/status.json"));
    QCOMPARE(status.value(QStringLiteral("exit_code")).toInt(), 3);
}

void Lifecycle::sessionStartRecordsEveryWideningFlag_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QStringList>("runOptions");
    QTest::addColumn<QStringList>("badges");
    for (const char* account : {"root", "user"}) {
        const QString a = QString::fromLatin1(account);
        QTest::addRow("%s: --sudo --net open --local-tcp", account)
            << a
            << QStringList{QStringLiteral("--sudo"), QStringLiteral("--net"), QStringLiteral("open"),
                           QStringLiteral("--local-tcp")}
            << QStringList{QStringLiteral("sudo"), QStringLiteral("net:open"), QStringLiteral("local-tcp")};
        QTest::addRow("%s: --yolo", account) << a << QStringList{QStringLiteral("--yolo")}
                                             << QStringList{QStringLiteral("yolo"), QStringLiteral("sudo"),
                                                            QStringLiteral("net:open")};
    }
}

void Lifecycle::sessionStartRecordsEveryWideningFlag()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QStringList, runOptions);
    QFETCH(QStringList, badges);
    const QString file = runner->newDirectory(QStringLiteral("events")) + QStringLiteral("/events.jsonl");
    const ProcessResult result =
        runner->moatRun(runOptions + QStringList{QStringLiteral("--json-events"), file}, {QStringLiteral("/bin/true")});
    QVERIFY2(result.succeeded(), qPrintable(result.describe()));
    const EventLog log = EventLog::read(file);
    QVERIFY2(log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    const QStringList flags = strings(
        log.first(QStringLiteral("session.start")).value(QStringLiteral("data")).toObject().value(QStringLiteral("flags")));
    for (const QString& badge : badges) {
        QVERIFY2(flags.contains(badge), qPrintable(badge + QStringLiteral(" not in ") + flags.join(QLatin1Char(','))));
    }
}

void Lifecycle::sessionRecordsAreOutOfTheAgentsReach_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Lifecycle::sessionRecordsAreOutOfTheAgentsReach()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // An earlier session's log: its owner can rewrite it outside.
    const ProcessResult earlier = runner->moatRun({}, {QStringLiteral("/bin/true")});
    QVERIFY2(earlier.succeeded(), qPrintable(earlier.describe()));
    QVERIFY(!runner->sessionIds().isEmpty());
    const QString earlierLog = runner->sessionDir(runner->sessionIds().first()) + QStringLiteral("/events.jsonl");
    const QString tamper = QStringLiteral("echo '{\"forged\":true}' >> %1");
    const ProcessResult outside = runner->hostShell(tamper.arg(earlierLog));
    QVERIFY2(outside.succeeded(), qPrintable(outside.describe()));
    QVERIFY(!EventLog::read(earlierLog).chainProblem().isEmpty());

    // From inside, neither that log nor the running session's own can be
    // reached, whatever the path.
    const QString ownLog = runner->stateDir() + QStringLiteral("/sessions/$MOAT_SESSION/events.jsonl");
    const ProcessResult inside = runner->moatShell(
        {}, QStringLiteral("%1; %2; /bin/ls %3 && echo state-visible")
                .arg(tamper.arg(earlierLog), tamper.arg(ownLog), runner->stateDir()));
    QVERIFY2(!inside.out.contains("state-visible"), qPrintable(inside.describe()));
    const QStringList ids = runner->sessionIds();
    QVERIFY(ids.size() >= 2);
    const EventLog current = EventLog::read(runner->sessionDir(ids.first()) + QStringLiteral("/events.jsonl"));
    QVERIFY2(current.chainProblem().isEmpty(), qPrintable(current.chainProblem()));
    // And the state directory cannot be handed in as a mount either.
    const ProcessResult mounted = runner->moatRun({QStringLiteral("--rw"), runner->stateDir()}, {QStringLiteral("/bin/true")});
    QVERIFY2(mounted.exitCode == 125, qPrintable(mounted.describe()));
}

void Lifecycle::agentHomeIsPrivateAndPersists_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Lifecycle::agentHomeIsPrivateAndPersists()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString note = randomName("note");
    const ProcessResult first =
        runner->moatShell({}, QStringLiteral("echo \"$HOME\"; echo %1 > \"$HOME/moat-it-note\"").arg(note));
    QVERIFY2(first.succeeded(), qPrintable(first.describe()));
    const QString expectedHome = runner->account().isRoot() ? QStringLiteral("/home/agent")
                                                            : QStringLiteral("/home/") + runner->account().name();
    QCOMPARE(first.stdOut().trimmed(), expectedHome);

    const ProcessResult second = runner->moatShell({}, QStringLiteral("/bin/cat \"$HOME/moat-it-note\""));
    QVERIFY2(second.succeeded() && second.stdOut().trimmed() == note, qPrintable(second.describe()));
    // It lives in moat's state, not in the user's real home.
    QVERIFY(QFileInfo::exists(runner->stateDir() + QStringLiteral("/homes/default/moat-it-note")));
    QVERIFY(!QFileInfo::exists(runner->account().home() + QStringLiteral("/moat-it-note")));

    const ProcessResult sudo = runner->moatShell({QStringLiteral("--sudo")}, QStringLiteral("echo \"$HOME\""));
    QVERIFY2(sudo.succeeded() && sudo.stdOut().trimmed() == QLatin1String("/root"), qPrintable(sudo.describe()));
}

void Lifecycle::ttlStopsTheSession_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Lifecycle::ttlStopsTheSession()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QStringList command{QStringLiteral("/bin/sleep"), QStringLiteral("30")};
    QElapsedTimer clock;
    clock.start();
    auto outside = runner->startHost(command);

    const QString file = runner->newDirectory(QStringLiteral("events")) + QStringLiteral("/events.jsonl");
    const ProcessResult inside =
        runner->moatRun({QStringLiteral("--ttl"), QStringLiteral("2s"), QStringLiteral("--json-events"), file}, command);
    QVERIFY2(inside.exitCode == 143, qPrintable(inside.describe()));
    QVERIFY2(inside.elapsedMs >= 1800 && inside.elapsedMs < 4500, qPrintable(inside.describe()));
    QVERIFY2(inside.stdErr().contains(QLatin1String("time limit")), qPrintable(inside.describe()));
    QVERIFY2(inside.stdErr().contains(QLatin1String("--ttl")), qPrintable(inside.describe()));

    const EventLog log = EventLog::read(file);
    QVERIFY2(log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    QVERIFY2(log.types().contains(QStringLiteral("ttl.expire")), qPrintable(log.types().join(QLatin1Char(','))));
    const QJsonObject end = log.first(QStringLiteral("session.end")).value(QStringLiteral("data")).toObject();
    QCOMPARE(end.value(QStringLiteral("exit_code")).toInt(), 143);

    // Outside, nothing stops the same command.
    QThread::msleep(static_cast<unsigned long>(qMax<qint64>(0, 3000 - clock.elapsed())));
    QVERIFY2(outside->isRunning(), "sleep 30 outside did not live 3 s");
}

void Lifecycle::ttlKillsACommandThatIgnoresTerm_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Lifecycle::ttlKillsACommandThatIgnoresTerm()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString marker = randomName("moat-it-stubborn");
    const ProcessResult inside = runner->moatShell(
        {QStringLiteral("--ttl"), QStringLiteral("2s"), QStringLiteral("--env"), QStringLiteral("MARKER=") + marker},
        QStringLiteral("trap 'echo got-term' TERM; /bin/bash -c 'trap \"\" TERM; exec -a \"$MARKER\" /bin/sleep 60' & "
                       "while :; do /bin/sleep 1; done"));
    QVERIFY2(inside.exitCode == 137, qPrintable(inside.describe()));
    // SIGTERM at 2 s, SIGKILL 5 s later.
    QVERIFY2(inside.elapsedMs >= 6500 && inside.elapsedMs < 9500, qPrintable(inside.describe()));
    const QList<pid_t> left = ProcessTable::withCommandLineContaining(marker.toUtf8());
    ProcessTable::killAll(left);
    QVERIFY2(left.isEmpty(), "a process that ignored SIGTERM outlived the expired session");
}

void Lifecycle::missingLayerRefusesToStart_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QString>("layer");
    QTest::addColumn<QString>("name");
    for (const char* account : {"root", "user"}) {
        QTest::addRow("%s: landlock", account) << QString::fromLatin1(account) << "landlock"
                                               << "Landlock";
        QTest::addRow("%s: seccomp", account) << QString::fromLatin1(account) << "seccomp"
                                              << "seccomp";
    }
}

void Lifecycle::missingLayerRefusesToStart()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, layer);
    QFETCH(QString, name);
    // The helper really takes the layer away: the same probe answers outside
    // without it and is refused under it.
    const QString probe = layer == QLatin1String("landlock")
                              ? QStringLiteral("import ctypes; libc = ctypes.CDLL(None, use_errno=True); "
                                               "print('abi', libc.syscall(444, None, 0, 1))")
                              : QStringLiteral("import ctypes; libc = ctypes.CDLL(None, use_errno=True); "
                                               "print('abi', libc.prctl(21, 0, 0, 0, 0))");
    const QStringList python{QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"), probe};
    const ProcessResult plain = runner->host(python);
    QVERIFY2(plain.succeeded() && !plain.out.contains("abi -1"), qPrintable(plain.describe()));
    const ProcessResult without = runner->host(denied(layer, python));
    QVERIFY2(without.succeeded() && without.out.contains("abi -1"), qPrintable(without.describe()));

    const QString file = runner->newDirectory(QStringLiteral("events")) + QStringLiteral("/events.jsonl");
    const ProcessResult refused = runner->host(denied(
        layer, runner->moatRunCommand({QStringLiteral("--json-events"), file},
                                      {QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("echo ran")})));
    QVERIFY2(refused.exitCode == 125, qPrintable(refused.describe()));
    QVERIFY2(!refused.out.contains("ran"), qPrintable(refused.describe()));
    QVERIFY2(refused.stdErr().startsWith(QLatin1String("moat: ")), qPrintable(refused.describe()));
    QVERIFY2(refused.stdErr().contains(name), qPrintable(refused.describe()));
    QVERIFY2(refused.stdErr().contains(QStringLiteral("--allow-degraded=") + layer), qPrintable(refused.describe()));
}

void Lifecycle::allowDegradedStartsAndRecordsIt_data()
{
    missingLayerRefusesToStart_data();
}

void Lifecycle::allowDegradedStartsAndRecordsIt()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, layer);
    QFETCH(QString, name);
    const QString file = runner->newDirectory(QStringLiteral("events")) + QStringLiteral("/events.jsonl");
    const ProcessResult degraded = runner->host(
        denied(layer, runner->moatRunCommand({QStringLiteral("--allow-degraded=") + layer, QStringLiteral("--json-events"),
                                              file},
                                             {QStringLiteral("/bin/cat"), QStringLiteral("/proc/self/status")})));
    QVERIFY2(degraded.succeeded(), qPrintable(degraded.describe()));
    QVERIFY2(degraded.stdErr().contains(QLatin1String("warning")) && degraded.stdErr().contains(layer),
             qPrintable(degraded.describe()));
    // What is left still holds: no capabilities, no_new_privs.
    QVERIFY2(degraded.out.contains("CapEff:\t0000000000000000"), qPrintable(degraded.describe()));
    QVERIFY2(degraded.out.contains("NoNewPrivs:\t1"), qPrintable(degraded.describe()));

    const EventLog log = EventLog::read(file);
    QVERIFY2(log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    const QJsonObject start = log.first(QStringLiteral("session.start")).value(QStringLiteral("data")).toObject();
    QCOMPARE(strings(start.value(QStringLiteral("degraded"))), QStringList{layer});
    QVERIFY2(strings(start.value(QStringLiteral("flags"))).contains(QStringLiteral("degraded:") + layer),
             qPrintable(QJsonDocument(start).toJson()));
    if (layer == QLatin1String("landlock")) {
        QVERIFY2(start.value(QStringLiteral("landlock")).toObject().value(QStringLiteral("abi")).toInt() <= 0,
                 qPrintable(QJsonDocument(start).toJson()));
        QCOMPARE(start.value(QStringLiteral("seccomp")).toBool(), true);
    } else {
        QCOMPARE(start.value(QStringLiteral("seccomp")).toBool(), false);
        QVERIFY(start.value(QStringLiteral("landlock")).toObject().value(QStringLiteral("abi")).toInt() >= 1);
    }
    Q_UNUSED(name);
}

QTEST_GUILESS_MAIN(Lifecycle)
#include "tst_lifecycle.moc"
