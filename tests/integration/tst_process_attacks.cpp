// SPDX-License-Identifier: Apache-2.0
// The agent holds no privilege, sees none of the caller's secrets, cannot
// reach processes outside and leaves nothing running behind. Each attack first
// succeeds outside the sandbox, as the same user with the same command, then
// fails inside `moat run`.

#include "integrationfixture.h"
#include "processtable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <signal.h>
#include <sys/stat.h>

namespace {

QString uniqueMarker(const char* what)
{
    return QStringLiteral("moat-it-%1-%2")
        .arg(QLatin1String(what))
        .arg(QRandomGenerator::system()->generate64(), 0, 16);
}

// The value of "Name:" in /proc/PID/status text, or an empty string.
QString statusField(const QByteArray& status, const char* name)
{
    for (const QByteArray& line : status.split('\n')) {
        if (line.startsWith(QByteArray(name) + ':')) {
            return QString::fromLatin1(line.mid(static_cast<int>(qstrlen(name)) + 1).trimmed());
        }
    }
    return {};
}

bool isZeroMask(const QString& mask)
{
    bool ok = false;
    return !mask.isEmpty() && mask.toULongLong(&ok, 16) == 0 && ok;
}

// A sudoers.d rule for the test, checked with visudo, removed on destruction.
class TemporarySudoRule
{
public:
    bool install(const QString& user, QString* error)
    {
        path_ = QStringLiteral("/etc/sudoers.d/moat-it-%1").arg(QRandomGenerator::system()->generate(), 0, 16);
        QFile file(path_);
        if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
            *error = QStringLiteral("cannot create %1: %2").arg(path_, file.errorString());
            return false;
        }
        file.write(QStringLiteral("%1 ALL=(root) NOPASSWD: /usr/bin/true\n").arg(user).toUtf8());
        file.close();
        ::chmod(path_.toLocal8Bit().constData(), 0440);
        return true;
    }
    ~TemporarySudoRule()
    {
        if (!path_.isEmpty()) {
            QFile::remove(path_);
        }
    }

private:
    QString path_;
};

}  // namespace

class ProcessAttacks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void hostEnvironmentSecretsStayOutside_data();
    void hostEnvironmentSecretsStayOutside();
    void envFlagPassesOneVariableOnPurpose_data();
    void envFlagPassesOneVariableOnPurpose();
    void capabilitiesAreEmptyAndNoNewPrivsIsSet_data();
    void capabilitiesAreEmptyAndNoNewPrivsIsSet();
    void setuidBinariesDoNotElevate_data();
    void setuidBinariesDoNotElevate();
    void passwordlessSudoDoesNotWork_data();
    void passwordlessSudoDoesNotWork();
    void mountIsRefused_data();
    void mountIsRefused();
    void mountIsRefusedEvenToSudoRoot_data();
    void mountIsRefusedEvenToSudoRoot();
    void userNamespacesCannotBeCreated_data();
    void userNamespacesCannotBeCreated();
    void userNamespacesWorkWithSudoFlag_data();
    void userNamespacesWorkWithSudoFlag();
    void hostProcessesCannotBeSignalledOrTraced_data();
    void hostProcessesCannotBeSignalledOrTraced();
    void backgroundProcessesDieWithTheSession_data();
    void backgroundProcessesDieWithTheSession();
    void sandboxDiesWithItsSupervisor_data();
    void sandboxDiesWithItsSupervisor();

private:
    IntegrationFixture fixture_;
    QStringList markers_;
};

void ProcessAttacks::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void ProcessAttacks::init()
{
    fixture_.renewWorkspaces();
}

void ProcessAttacks::cleanup()
{
    for (const QString& marker : std::as_const(markers_)) {
        ProcessTable::killAll(ProcessTable::withCommandLineContaining(marker.toUtf8()));
    }
    markers_.clear();
}

void ProcessAttacks::cleanupTestCase()
{
    fixture_.tearDown();
}

void ProcessAttacks::hostEnvironmentSecretsStayOutside_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::hostEnvironmentSecretsStayOutside()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString secret = uniqueMarker("secret");
    RunOptions withSecret;
    withSecret.environment = {{QStringLiteral("AWS_SECRET_ACCESS_KEY"), secret},
                              {QStringLiteral("GITHUB_TOKEN"), secret + QStringLiteral("-gh")}};

    const ProcessResult outside = runner->hostShell(QStringLiteral("echo \"$AWS_SECRET_ACCESS_KEY\""), withSecret);
    QVERIFY2(outside.succeeded() && outside.out.contains(secret.toUtf8()), qPrintable(outside.describe()));

    // Its own environment, and every environment it can see in /proc
    // (init's included).
    const ProcessResult inside = runner->moatShell(
        {}, QStringLiteral("/usr/bin/env; for f in /proc/[0-9]*/environ; do /bin/cat $f; echo; done"), withSecret);
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("MOAT_SESSION="), qPrintable(inside.describe()));
    QVERIFY2(!inside.out.contains(secret.toUtf8()), qPrintable(inside.describe()));
    QVERIFY2(!inside.out.contains("AWS_SECRET_ACCESS_KEY"), qPrintable(inside.describe()));
    QVERIFY2(!inside.out.contains("GITHUB_TOKEN"), qPrintable(inside.describe()));
}

void ProcessAttacks::envFlagPassesOneVariableOnPurpose_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::envFlagPassesOneVariableOnPurpose()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString secret = uniqueMarker("secret");
    RunOptions withSecret;
    withSecret.environment = {{QStringLiteral("AWS_SECRET_ACCESS_KEY"), secret},
                              {QStringLiteral("GITHUB_TOKEN"), secret + QStringLiteral("-gh")}};
    const ProcessResult inside =
        runner->moatRun({QStringLiteral("--env"), QStringLiteral("AWS_SECRET_ACCESS_KEY"), QStringLiteral("--env"),
                         QStringLiteral("GREETING=hello there")},
                        {QStringLiteral("/usr/bin/env")}, withSecret);
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains(QStringLiteral("AWS_SECRET_ACCESS_KEY=%1\n").arg(secret).toUtf8()),
             qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("GREETING=hello there\n"), qPrintable(inside.describe()));
    // Only the one that was named.
    QVERIFY2(!inside.out.contains("GITHUB_TOKEN"), qPrintable(inside.describe()));
}

void ProcessAttacks::capabilitiesAreEmptyAndNoNewPrivsIsSet_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::capabilitiesAreEmptyAndNoNewPrivsIsSet()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // Outside, root holds capabilities; an ordinary user gets a full set by
    // entering a user namespace of its own.
    const ProcessResult plain = runner->host({QStringLiteral("/bin/cat"), QStringLiteral("/proc/self/status")});
    QVERIFY2(plain.succeeded(), qPrintable(plain.describe()));
    const ProcessResult viaUserns = runner->host({QStringLiteral("/usr/bin/unshare"), QStringLiteral("-r"),
                                                  QStringLiteral("/bin/cat"), QStringLiteral("/proc/self/status")});
    const bool gainedOutside = !isZeroMask(statusField(plain.out, "CapEff")) ||
                               (viaUserns.succeeded() && !isZeroMask(statusField(viaUserns.out, "CapEff")));
    QVERIFY2(gainedOutside, qPrintable(plain.describe() + viaUserns.describe()));
    if (runner->account().isRoot()) {
        QVERIFY2(!isZeroMask(statusField(plain.out, "CapEff")), qPrintable(plain.describe()));
    }

    const ProcessResult inside = runner->moatRun({}, {QStringLiteral("/bin/cat"), QStringLiteral("/proc/self/status")});
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    for (const char* set : {"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"}) {
        QVERIFY2(isZeroMask(statusField(inside.out, set)),
                 qPrintable(QStringLiteral("%1 is '%2' inside").arg(QLatin1String(set), statusField(inside.out, set))));
    }
    QCOMPARE(statusField(inside.out, "NoNewPrivs"), QStringLiteral("1"));
    QVERIFY2(statusField(inside.out, "Seccomp") == QLatin1String("2"), qPrintable(inside.describe()));
    const ProcessResult nested = runner->moatRun({}, {QStringLiteral("/usr/bin/unshare"), QStringLiteral("-r"),
                                                      QStringLiteral("/bin/cat"), QStringLiteral("/proc/self/status")});
    QVERIFY2(nested.exitCode != 0 || isZeroMask(statusField(nested.out, "CapEff")), qPrintable(nested.describe()));
}

void ProcessAttacks::setuidBinariesDoNotElevate_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::setuidBinariesDoNotElevate()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (!IntegrationFixture::runningAsRoot()) {
        QSKIP("planting a setuid-root program needs root");
    }
    // A setuid-root copy of id(1) under /usr, which the sandbox shows.
    QTemporaryDir dir(QStringLiteral("/usr/moat-it-suid-XXXXXX"));
    QVERIFY2(dir.isValid(), qPrintable(dir.errorString()));
    QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0755) == 0);
    const QString id = dir.path() + QStringLiteral("/id");
    QVERIFY(QFile::copy(QStringLiteral("/usr/bin/id"), id));
    QVERIFY(::chown(id.toLocal8Bit().constData(), 0, 0) == 0);
    QVERIFY(::chmod(id.toLocal8Bit().constData(), 04755) == 0);

    const ProcessResult outside = runner->host({id, QStringLiteral("-u")});
    QVERIFY2(outside.succeeded() && outside.stdOut().trimmed() == QLatin1String("0"), qPrintable(outside.describe()));

    const ProcessResult inside = runner->moatRun({}, {id, QStringLiteral("-u")});
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.stdOut().trimmed() != QLatin1String("0"), qPrintable(inside.describe()));
    const ProcessResult su = runner->moatShell({}, QStringLiteral("/bin/su -c '/usr/bin/id -u' root </dev/null"));
    QVERIFY2(su.exitCode != 0 || su.stdOut().trimmed() != QLatin1String("0"), qPrintable(su.describe()));
}

void ProcessAttacks::passwordlessSudoDoesNotWork_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::passwordlessSudoDoesNotWork()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString sudo = QStringLiteral("/usr/bin/sudo");
    if (!QFileInfo(sudo).isExecutable()) {
        QSKIP("sudo is not installed (apt-get install sudo)");
    }
    TemporarySudoRule rule;
    if (!runner->account().isRoot()) {
        if (!IntegrationFixture::runningAsRoot()) {
            const ProcessResult probe = runner->host({sudo, QStringLiteral("-n"), QStringLiteral("/usr/bin/true")});
            if (!probe.succeeded()) {
                QSKIP("this user has no passwordless sudo to take away, and adding a rule needs root");
            }
        } else {
            QString error;
            QVERIFY2(rule.install(runner->account().name(), &error), qPrintable(error));
        }
    }
    const QStringList attempt{sudo, QStringLiteral("-n"), QStringLiteral("/usr/bin/true")};
    const ProcessResult outside = runner->host(attempt);
    QVERIFY2(outside.succeeded(), qPrintable(outside.describe()));

    const ProcessResult inside = runner->moatRun({}, attempt);
    QVERIFY2(inside.exitCode != 0, qPrintable(inside.describe()));
}

void ProcessAttacks::mountIsRefused_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::mountIsRefused()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString target = runner->workspace() + QStringLiteral("/mnt");
    QVERIFY(QDir().mkdir(target));
    QVERIFY(runner->account().giveOwnership(target));
    const QString attempt =
        QStringLiteral("/usr/bin/unshare -rm /bin/mount -t tmpfs none %1 && echo mounted").arg(target);

    const ProcessResult outside = runner->hostShell(attempt);
    QVERIFY2(outside.succeeded() && outside.out.contains("mounted"), qPrintable(outside.describe()));

    const ProcessResult inside = runner->moatShell({}, attempt);
    QVERIFY2(inside.exitCode != 0 && !inside.out.contains("mounted"), qPrintable(inside.describe()));
    const ProcessResult plain =
        runner->moatShell({}, QStringLiteral("/bin/mount -t tmpfs none %1 && echo mounted").arg(target));
    QVERIFY2(plain.exitCode != 0 && !plain.out.contains("mounted"), qPrintable(plain.describe()));
}

void ProcessAttacks::mountIsRefusedEvenToSudoRoot_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::mountIsRefusedEvenToSudoRoot()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString target = runner->workspace() + QStringLiteral("/mnt");
    QVERIFY(QDir().mkdir(target));
    QVERIFY(runner->account().giveOwnership(target));
    const QStringList sudoFlag{QStringLiteral("--sudo")};
    // --sudo made the agent root in its namespace (so the refusal below is
    // not just a missing privilege)...
    const ProcessResult who = runner->moatRun(sudoFlag, {QStringLiteral("/usr/bin/id"), QStringLiteral("-u")});
    QVERIFY2(who.succeeded() && who.stdOut().trimmed() == QLatin1String("0"), qPrintable(who.describe()));
    // ...yet the mount family stays closed.
    for (const QString& attempt :
         {QStringLiteral("/bin/mount -t tmpfs none %1 && echo mounted").arg(target),
          QStringLiteral("/usr/bin/unshare -m /bin/mount -t tmpfs none %1 && echo mounted").arg(target),
          QStringLiteral("/usr/bin/unshare -rm /bin/mount -t tmpfs none %1 && echo mounted").arg(target)}) {
        const ProcessResult inside = runner->moatShell(sudoFlag, attempt);
        QVERIFY2(inside.exitCode != 0 && !inside.out.contains("mounted"), qPrintable(inside.describe()));
    }
}

void ProcessAttacks::userNamespacesCannotBeCreated_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::userNamespacesCannotBeCreated()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QStringList attempt{QStringLiteral("/usr/bin/unshare"), QStringLiteral("-U"), QStringLiteral("/bin/true")};
    const ProcessResult outside = runner->host(attempt);
    QVERIFY2(outside.succeeded(), qPrintable(outside.describe()));

    const ProcessResult inside = runner->moatRun({}, attempt);
    QVERIFY2(inside.exitCode != 0, qPrintable(inside.describe()));
    const ProcessResult python = runner->moatRun(
        {}, {QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"),
             QStringLiteral("import os; os.unshare(os.CLONE_NEWUSER); print('unshared')")});
    QVERIFY2(python.exitCode != 0 && !python.out.contains("unshared"), qPrintable(python.describe()));
}

void ProcessAttacks::userNamespacesWorkWithSudoFlag_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::userNamespacesWorkWithSudoFlag()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult inside =
        runner->moatRun({QStringLiteral("--sudo")},
                        {QStringLiteral("/usr/bin/unshare"), QStringLiteral("-U"), QStringLiteral("/bin/true")});
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
}

void ProcessAttacks::sandboxDiesWithItsSupervisor_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::sandboxDiesWithItsSupervisor()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // The sleeping process is named MARKER-sleeping: moat's own command line
    // (which carries MARKER in --env) never holds that whole name.
    const QString script = QStringLiteral("exec -a \"$MARKER-sleeping\" /bin/sleep 1000");

    // Outside, a child outlives its parent killed with SIGKILL.
    const QString outsideMarker = uniqueMarker("orphan-outside");
    markers_ << outsideMarker;
    // The marker is split by "" so that only the child's command line holds it whole.
    const qsizetype half = outsideMarker.size() / 2;
    auto parent = runner->startHost(
        {QStringLiteral("/bin/bash"), QStringLiteral("-c"),
         QStringLiteral("MARKER=%1\"\"%2 /bin/bash -c '%3' & wait")
             .arg(outsideMarker.left(half), outsideMarker.mid(half), script)});
    const QByteArray orphan = (outsideMarker + QStringLiteral("-sleeping")).toUtf8();
    QTRY_COMPARE_WITH_TIMEOUT(ProcessTable::withCommandLineContaining(orphan).size(), 1, 5000);
    QVERIFY(::kill(parent->pid(), SIGKILL) == 0);
    QTest::qWait(300);
    QCOMPARE(ProcessTable::withCommandLineContaining(orphan).size(), 1);

    // Inside, killing moat (which is the session's supervisor) takes the
    // whole sandbox with it, as root and as an ordinary user.
    const QString insideMarker = uniqueMarker("orphan-inside");
    markers_ << insideMarker;
    auto moat = runner->startHost(runner->moatRunCommand(
        {QStringLiteral("--env"), QStringLiteral("MARKER=") + insideMarker},
        {QStringLiteral("/bin/bash"), QStringLiteral("-c"), script}));
    const QByteArray sleeping = (insideMarker + QStringLiteral("-sleeping")).toUtf8();
    QTRY_COMPARE_WITH_TIMEOUT(ProcessTable::withCommandLineContaining(sleeping).size(), 1, 5000);
    QVERIFY(::kill(moat->pid(), SIGKILL) == 0);
    QTRY_VERIFY_WITH_TIMEOUT(ProcessTable::withCommandLineContaining(sleeping).isEmpty(), 3000);
}

void ProcessAttacks::hostProcessesCannotBeSignalledOrTraced_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::hostProcessesCannotBeSignalledOrTraced()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    auto victim = runner->startHost({QStringLiteral("/bin/sleep"), QStringLiteral("1000")});
    QVERIFY(victim->isRunning());
    // Until setpriv has exec'd sleep, the process is not dumpable (it just
    // changed uid): neither kill -0 nor ptrace would say anything about moat.
    QTRY_VERIFY_WITH_TIMEOUT(ProcessTable::commandLine(victim->pid()).startsWith("/bin/sleep"), 5000);
    const QString pid = QString::number(victim->pid());
    const QString ptrace = fixture_.install().tool(QStringLiteral("ptrace-attach.py"));
    const QStringList tools{QStringLiteral("--ro"), fixture_.install().dir()};

    const ProcessResult outsideSignal = runner->hostShell(QStringLiteral("kill -0 %1 && echo signalled").arg(pid));
    QVERIFY2(outsideSignal.succeeded() && outsideSignal.out.contains("signalled"),
             qPrintable(outsideSignal.describe()));
    const ProcessResult outsideTrace = runner->host({QStringLiteral("/usr/bin/python3"), ptrace, pid});
    QVERIFY2(outsideTrace.succeeded() && outsideTrace.out.contains("attached"), qPrintable(outsideTrace.describe()));
    QVERIFY(victim->isRunning());

    // Also as root of the sandbox's own user namespace (--sudo), which holds
    // CAP_KILL and CAP_SYS_PTRACE there.
    for (const QStringList& flags : {tools, tools + QStringList{QStringLiteral("--sudo")}}) {
        const ProcessResult probe = runner->moatShell(flags, QStringLiteral("kill -0 %1 && echo signalled").arg(pid));
        QVERIFY2(probe.exitCode != 0 && !probe.out.contains("signalled"), qPrintable(probe.describe()));
        const ProcessResult kill = runner->moatShell(flags, QStringLiteral("kill -KILL %1 && echo killed").arg(pid));
        QVERIFY2(kill.exitCode != 0 && !kill.out.contains("killed"), qPrintable(kill.describe()));
        const ProcessResult trace = runner->moatRun(flags, {QStringLiteral("/usr/bin/python3"), ptrace, pid});
        QVERIFY2(trace.exitCode != 0 && !trace.out.contains("attached"), qPrintable(trace.describe()));
    }
    QVERIFY2(victim->isRunning(), "the process outside was hurt from inside the sandbox");
}

void ProcessAttacks::backgroundProcessesDieWithTheSession_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ProcessAttacks::backgroundProcessesDieWithTheSession()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // The marker reaches the shell through the environment, so only the
    // processes it starts carry it on their command line: a detached session
    // (setsid) and a double-forked orphan.
    const QString script = QStringLiteral(
        "/usr/bin/setsid /bin/bash -c 'exec -a \"$MARKER-setsid\" /bin/sleep 1000' </dev/null >/dev/null 2>&1 & "
        "( /bin/bash -c 'exec -a \"$MARKER-orphan\" /bin/sleep 1000' </dev/null >/dev/null 2>&1 & ) ; "
        "/bin/sleep 0.3; "
        "for p in /proc/[0-9]*; do /usr/bin/tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done "
        "| /bin/grep -c -e \"$MARKER-[s]etsid\" -e \"$MARKER-[o]rphan\"");

    const QString outsideMarker = uniqueMarker("left-outside");
    markers_ << outsideMarker;
    RunOptions outsideOptions;
    outsideOptions.environment = {{QStringLiteral("MARKER"), outsideMarker}};
    const ProcessResult outside = runner->hostShell(script, outsideOptions);
    QVERIFY2(outside.succeeded() && outside.stdOut().trimmed() == QLatin1String("2"),
             qPrintable(outside.describe()));
    QTRY_COMPARE_WITH_TIMEOUT(ProcessTable::withCommandLineContaining(outsideMarker.toUtf8()).size(), 2, 2000);

    const QString insideMarker = uniqueMarker("left-inside");
    markers_ << insideMarker;
    const ProcessResult inside =
        runner->moatShell({QStringLiteral("--env"), QStringLiteral("MARKER=") + insideMarker}, script);
    // Both were running inside before the command returned...
    QVERIFY2(inside.succeeded() && inside.stdOut().trimmed() == QLatin1String("2"), qPrintable(inside.describe()));
    // ...and none is left now that moat has.
    const QList<pid_t> left = ProcessTable::withCommandLineContaining(insideMarker.toUtf8());
    QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("%1 process(es) outlived the session: %2")
                                            .arg(left.size())
                                            .arg(QString::fromUtf8(ProcessTable::commandLine(left.value(0))))));
}

QTEST_GUILESS_MAIN(ProcessAttacks)
#include "tst_process_attacks.moc"
