// SPDX-License-Identifier: Apache-2.0
// Exec records: every execve in the sandbox is an `exec` event with its path,
// argv and pid in the sandbox, recorded by the supervisor from outside while
// the exec waits (seccomp user notification). A record, not a boundary: each
// exec runs as asked. A command that execs in a tight loop is answered every
// time and fills the record with a count, not with lines.

#include "eventlog.h"
#include "integrationfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace {

QStringList strings(const QJsonValue& value)
{
    QStringList list;
    for (const QJsonValue& item : value.toArray()) {
        list.append(item.toString());
    }
    return list;
}

QList<QJsonObject> execEvents(const EventLog& log)
{
    QList<QJsonObject> out;
    for (const QJsonObject& event : log.events()) {
        if (event.value(QStringLiteral("type")).toString() == QStringLiteral("exec")) {
            out.append(event.value(QStringLiteral("data")).toObject());
        }
    }
    return out;
}

QString describe(const QList<QJsonObject>& events)
{
    QStringList lines;
    for (const QJsonObject& event : events) {
        lines.append(QString::fromUtf8(QJsonDocument(event).toJson(QJsonDocument::Compact)));
    }
    return lines.join(QLatin1Char('\n'));
}

// The index of the first event at or after `from` whose argv is `argv`, or -1.
qsizetype findArgv(const QList<QJsonObject>& events, const QStringList& argv, qsizetype from = 0)
{
    for (qsizetype i = from; i < events.size(); ++i) {
        if (strings(events[i].value(QStringLiteral("argv"))) == argv) {
            return i;
        }
    }
    return -1;
}

}  // namespace

class ExecEvents : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void everyExecIsRecordedWithItsArgv_data();
    void everyExecIsRecordedWithItsArgv();
    void aProcessThatIsNotDumpableIsRecordedToo_data();
    void aProcessThatIsNotDumpableIsRecordedToo();
    void moatLogsShowsAnAgentsEscapeSequencesHarmlessly_data();
    void moatLogsShowsAnAgentsEscapeSequencesHarmlessly();
    void aTightExecLoopIsAnsweredAndCounted_data();
    void aTightExecLoopIsAnsweredAndCounted();

private:
    IntegrationFixture fixture_;
};

void ExecEvents::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void ExecEvents::init()
{
    fixture_.renewWorkspaces();
}

void ExecEvents::cleanupTestCase()
{
    fixture_.tearDown();
}

void ExecEvents::moatLogsShowsAnAgentsEscapeSequencesHarmlessly_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

// The agent chooses what its execs look like: an argument with a title
// change (OSC 0), a cleared screen and a bell is recorded as it was, and
// `moat logs` must not hand those bytes to the user's terminal.
void ExecEvents::moatLogsShowsAnAgentsEscapeSequencesHarmlessly()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString file = runner->newDirectory(QStringLiteral("exec")) + QStringLiteral("/events.jsonl");
    const QString name = QStringLiteral("escapes-%1").arg(QTest::currentDataTag());
    const ProcessResult result = runner->moatRun(
        {QStringLiteral("--json-events"), file, QStringLiteral("--name"), name},
        {QStringLiteral("sh"), QStringLiteral("-c"),
         QStringLiteral("/bin/true \"$(printf '\\033]0;owned\\007\\033[2J')\"; "
                        "\"$(printf '/no/such/\\033]0;path\\007')\" 2>/dev/null; exit 0")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));

    // The record holds the bytes as the agent passed them...
    const QString payload = QStringLiteral("\x1b]0;owned\x07\x1b[2J");
    bool recorded = false;
    for (const QJsonObject& event : execEvents(EventLog::read(file))) {
        recorded = recorded || strings(event.value(QStringLiteral("argv"))).contains(payload);
    }
    QVERIFY2(recorded, qPrintable(describe(execEvents(EventLog::read(file)))));

    // ...and the readable timeline shows them, escaped or as '?', never raw.
    const ProcessResult logs = runner->moat({QStringLiteral("logs"), name});
    QVERIFY2(logs.succeeded(), qPrintable(logs.describe()));
    QVERIFY2(logs.out.contains("]0;owned"), logs.out.constData());
    // A path is a plain string in the record: shown with '?' for each control byte.
    QVERIFY2(logs.out.contains("path=/no/such/?]0;path?"), logs.out.constData());
    for (char c : logs.out) {
        const auto byte = static_cast<unsigned char>(c);
        QVERIFY2(byte >= 0x20 || c == '\n', qPrintable(QStringLiteral("byte 0x%1 in moat logs").arg(byte, 2, 16)));
    }
}

void ExecEvents::everyExecIsRecordedWithItsArgv_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ExecEvents::everyExecIsRecordedWithItsArgv()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString file = runner->newDirectory(QStringLiteral("exec")) + QStringLiteral("/events.jsonl");
    const QStringList command{QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("/bin/true; /usr/bin/env A=1 true")};
    const ProcessResult result = runner->moatRun({QStringLiteral("--json-events"), file}, command);
    QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));

    const EventLog log = EventLog::read(file);
    QVERIFY2(log.isReadable(), qPrintable(file));
    const QList<QJsonObject> events = execEvents(log);
    const QString all = describe(events);

    // The command itself, as init started it: the spec says what it is.
    QVERIFY2(!events.isEmpty(), qPrintable(all));
    const QJsonObject first = events.first();
    QCOMPARE(strings(first.value(QStringLiteral("argv"))), command);
    QCOMPARE(first.value(QStringLiteral("pid")).toInt(), 2);

    // Then each exec the shell and env asked for, in order, with their
    // arguments: env's PATH search tries several directories, each an attempt.
    const qsizetype trueAt = findArgv(events, {QStringLiteral("/bin/true")}, 1);
    QVERIFY2(trueAt > 0, qPrintable(all));
    QCOMPARE(events[trueAt].value(QStringLiteral("path")).toString(), QStringLiteral("/bin/true"));
    const qsizetype envAt =
        findArgv(events, {QStringLiteral("/usr/bin/env"), QStringLiteral("A=1"), QStringLiteral("true")}, trueAt);
    QVERIFY2(envAt > trueAt, qPrintable(all));
    QCOMPARE(events[envAt].value(QStringLiteral("path")).toString(), QStringLiteral("/usr/bin/env"));
    const qsizetype innerAt = findArgv(events, {QStringLiteral("true")}, envAt);
    QVERIFY2(innerAt > envAt, qPrintable(all));
    bool ranTrue = false;
    for (qsizetype i = innerAt; i < events.size(); ++i) {
        const QString path = events[i].value(QStringLiteral("path")).toString();
        QVERIFY2(path.endsWith(QStringLiteral("/true")), qPrintable(all));
        ranTrue = ranTrue || path == QStringLiteral("/usr/bin/true") || path == QStringLiteral("/bin/true");
    }
    QVERIFY2(ranTrue, qPrintable(all));

    for (const QJsonObject& event : events) {
        // Pids as the sandbox sees them: init is 1, everything else above it.
        QVERIFY2(event.value(QStringLiteral("pid")).toInt() > 1, qPrintable(all));
        QVERIFY2(!event.contains(QStringLiteral("unreadable")), qPrintable(all));
        // Never the environment: it may hold secrets the agent was given.
        QVERIFY2(!event.contains(QStringLiteral("env")), qPrintable(all));
    }
    // The shell's pid, which ran the command and then forked for /bin/true.
    QVERIFY2(events[trueAt].value(QStringLiteral("pid")).toInt() != first.value(QStringLiteral("pid")).toInt(),
             qPrintable(all));
}

void ExecEvents::aProcessThatIsNotDumpableIsRecordedToo_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ExecEvents::aProcessThatIsNotDumpableIsRecordedToo()
{
    // Its /proc/PID/mem belongs to root then, which an ordinary user's
    // supervisor could not open; what it reads with needs ptrace access only.
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString file = runner->newDirectory(QStringLiteral("exec")) + QStringLiteral("/events.jsonl");
    const QString script = QStringLiteral(
        "import ctypes, os\n"
        "PR_SET_DUMPABLE, PR_GET_DUMPABLE = 4, 3\n"
        "libc = ctypes.CDLL(None)\n"
        "libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)\n"
        "assert libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0\n"
        "os.execv('/bin/true', ['true', 'not-dumpable'])\n");
    const ProcessResult result = runner->moatRun({QStringLiteral("--json-events"), file},
                                                 {QStringLiteral("python3"), QStringLiteral("-c"), script});
    QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));
    const QList<QJsonObject> events = execEvents(EventLog::read(file));
    const qsizetype at = findArgv(events, {QStringLiteral("true"), QStringLiteral("not-dumpable")});
    QVERIFY2(at > 0, qPrintable(describe(events)));
    QCOMPARE(events[at].value(QStringLiteral("path")).toString(), QStringLiteral("/bin/true"));
}

void ExecEvents::aTightExecLoopIsAnsweredAndCounted_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ExecEvents::aTightExecLoopIsAnsweredAndCounted()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString file = runner->newDirectory(QStringLiteral("exec")) + QStringLiteral("/events.jsonl");
    // 5000 execs of a missing file from one process, without forking: as
    // fast as the supervisor answers. Then, in a new second of the budget,
    // one more exec, which carries the count of what was left out.
    constexpr int kExecs = 5000;
    const QString loop = QStringLiteral(
                             "import os, time\n"
                             "for i in range(%1):\n"
                             "    try:\n"
                             "        os.execv('/nonexistent/missing', ['missing', str(i)])\n"
                             "    except FileNotFoundError:\n"
                             "        pass\n"
                             "print('done', flush=True)\n"
                             "time.sleep(1.2)\n"
                             "os.execv('/bin/true', ['true'])\n")
                             .arg(kExecs);
    const ProcessResult result = runner->moatRun({QStringLiteral("--json-events"), file},
                                                 {QStringLiteral("python3"), QStringLiteral("-c"), loop});
    QVERIFY2(result.exitCode == 0 && result.stdOut().trimmed() == QStringLiteral("done"),
             qPrintable(result.describe()));

    const EventLog log = EventLog::read(file);
    const QList<QJsonObject> events = execEvents(log);
    qint64 recorded = 0, counted = 0;
    for (const QJsonObject& event : events) {
        if (strings(event.value(QStringLiteral("argv"))).value(0) == QStringLiteral("missing")) {
            ++recorded;
        }
        counted += event.value(QStringLiteral("not_recorded_before")).toInteger();
    }
    // The budget is 100 a second: the flood is a few hundred lines at most,
    // and what was left out is counted in the next line recorded.
    qInfo("%d execs in %lld ms: %lld recorded, %lld counted", kExecs, result.elapsedMs, recorded, counted);
    QVERIFY2(recorded > 0, qPrintable(describe(events.mid(0, 5))));
    QVERIFY2(recorded <= 100 * (result.elapsedMs / 1000 + 2), qPrintable(QString::number(recorded)));
    QCOMPARE(recorded + counted, qint64(kExecs));
    QCOMPARE(strings(events.last().value(QStringLiteral("argv"))), QStringList{QStringLiteral("true")});
}

QTEST_GUILESS_MAIN(ExecEvents)
#include "tst_exec_events.moc"
