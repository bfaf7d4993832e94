// SPDX-License-Identifier: Apache-2.0
// Where a secret's value goes, with a real keychain (gnome-keyring on a
// private bus) and nginx as the server it is meant for. The value reaches
// nginx in its bound header; inside the sandbox it is in no process's
// environment or memory, in no core dump, and a placeholder sent to another
// allowed host is refused; moatd hands values over as moat does; and the
// supervisor that holds them is out of reach of the user's other processes.

#include "eventlog.h"
#include "integrationfixture.h"
#include "moatdbus.h"
#include "nginxupstream.h"
#include "recordingupstream.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

namespace {

const QString kVariable = QStringLiteral("API_KEY");

QByteArray newValue()
{
    return "real-key-" + QByteArray::number(QRandomGenerator::global()->generate64(), 36) + "-Zq7";
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Every file under `dir` whose content holds `needle`.
QStringList filesHolding(const QString& dir, const QByteArray& needle)
{
    QStringList found;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (readFile(path).contains(needle)) {
            found.append(path);
        }
    }
    return found;
}

QString corePattern()
{
    return QString::fromLatin1(readFile(QStringLiteral("/proc/sys/kernel/core_pattern")).trimmed());
}

// One session's setup: a keychain with the secret bound to nginx's address
// and header X-Api-Key, nginx, and the exposure script in the workspace.
struct SecretRig {
    std::unique_ptr<MoatdBus> bus;
    std::unique_ptr<UpstreamPki> pki;
    std::unique_ptr<NginxUpstream> nginx;
    QByteArray value = newValue();
    RunOptions withBus;
    QString problem;

    SecretRig(AccountRunner* runner, bool moatd)
    {
        pki = std::make_unique<UpstreamPki>(runner);
        if (!pki->ok) {
            problem = QStringLiteral("cannot make the test PKI");
            return;
        }
        nginx = std::make_unique<NginxUpstream>(runner, *pki);
        if (!nginx->problem().isEmpty()) {
            problem = nginx->problem();
            return;
        }
        bus = std::make_unique<MoatdBus>(runner);
        bus->setMoatdActivatable(moatd);
        if (!bus->start(&problem)) {
            return;
        }
        withBus.environment = bus->environment();
        RunOptions setting = withBus;
        setting.input = value;
        setting.feedInput = true;
        const ProcessResult set = runner->moat({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("KEY"),
                                                QStringLiteral("--host"), nginx->authority(),
                                                QStringLiteral("--header"), QStringLiteral("X-Api-Key")},
                                               setting);
        if (!set.succeeded()) {
            problem = QStringLiteral("moat secret set failed: ") + set.describe();
            return;
        }
        const QString script = runner->workspace() + QStringLiteral("/exposure_dump.py");
        if (!QFile::copy(QStringLiteral(MOAT_EXPOSURE_DUMP), script)) {
            problem = QStringLiteral("cannot copy the exposure script into the workspace");
        }
        QFile::setPermissions(script, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther | QFile::WriteOwner);
    }

    QStringList runOptions(const QStringList& more = {}) const
    {
        return QStringList{QStringLiteral("--allow-host"), nginx->authority(), QStringLiteral("--upstream-ca"),
                           pki->ca, QStringLiteral("--secret"), QStringLiteral("KEY=") + kVariable} +
               more;
    }
};

}  // namespace

class SecretExposure : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void theValueReachesNginxAndNoProcessInside_data();
    void theValueReachesNginxAndNoProcessInside();
    void aCoreDumpInsideHoldsNoValue_data();
    void aCoreDumpInsideHoldsNoValue();
    void moatdHandsTheValueOverLikeMoat_data();
    void moatdHandsTheValueOverLikeMoat();
    void theSupervisorIsOutOfTheUsersReach();

private:
    IntegrationFixture fixture_;
};

void SecretExposure::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    if (!NginxUpstream::available()) {
        QSKIP("nginx is missing (scripts/install-deps.sh installs nginx-light)");
    }
}

void SecretExposure::init()
{
    fixture_.renewWorkspaces();
}

void SecretExposure::cleanupTestCase()
{
    fixture_.tearDown();
}

void SecretExposure::theValueReachesNginxAndNoProcessInside_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SecretExposure::theValueReachesNginxAndNoProcessInside()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    SecretRig rig(runner, false);
    QVERIFY2(rig.problem.isEmpty(), qPrintable(rig.problem));
    // Another allowed host that moat intercepts (a rule names it): a
    // placeholder sent there is seen, and refused.
    RecordingUpstream other(runner, *rig.pki);
    QVERIFY(other.port() > 0);

    // Outside, a header is just a header: whatever is sent arrives.
    const ProcessResult outside = runner->hostShell(
        QStringLiteral("curl -sS --cacert %1 -H 'X-Api-Key: sent-outside' %2").arg(rig.pki->ca, rig.nginx->url("/out")));
    QVERIFY2(outside.succeeded(), qPrintable(outside.describe()));
    // nginx logs a request just after answering it.
    QTRY_VERIFY_WITH_TIMEOUT(rig.nginx->accessLog().contains("sent-outside"), 5000);

    const QString events = runner->newDirectory(QStringLiteral("events")) + QStringLiteral("/events.jsonl");
    const ProcessResult inside = runner->moatShell(
        rig.runOptions({QStringLiteral("--embedded"), QStringLiteral("--json-events"), events,
                        QStringLiteral("--allow-host"), other.authority(), QStringLiteral("--rule"),
                        QStringLiteral("GET %1 /** allow").arg(other.authority())}),
        QStringLiteral("python3 exposure_dump.py %1 %2 %3 .").arg(kVariable, rig.nginx->url("/api"), other.url("/api")),
        rig.withBus);
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("bound 200\nother 403\ndumped"), qPrintable(inside.describe()));

    // nginx got the value, in the bound header; the other host got nothing.
    QTRY_VERIFY_WITH_TIMEOUT(rig.nginx->accessLog().contains(rig.value), 5000);
    const QList<QJsonObject> seen = rig.nginx->requests();
    QVERIFY(!seen.isEmpty());
    QCOMPARE(seen.last().value(QStringLiteral("path")).toString(), QStringLiteral("/api"));
    QCOMPARE(seen.last().value(QStringLiteral("x_api_key")).toString().toUtf8(), rig.value);
    QVERIFY(other.requests().isEmpty());

    // Inside, the placeholder is everywhere the agent looks, the value nowhere.
    const QByteArray self = readFile(runner->workspace() + QStringLiteral("/self.mem"));
    const QByteArray procs = readFile(runner->workspace() + QStringLiteral("/procs.txt"));
    QVERIFY2(self.size() > 1000000, "the script's memory was not dumped");
    QVERIFY(self.contains("moat-placeholder-KEY-"));
    QVERIFY(procs.contains(kVariable.toUtf8() + "=moat-placeholder-KEY-"));
    QVERIFY2(!self.contains(rig.value), "the value is in the memory of a process inside");
    QVERIFY2(!procs.contains(rig.value), "the value is in a process's environment, command line or memory inside");
    QVERIFY2(filesHolding(runner->workspace(), rig.value).isEmpty(), "the value is in a file of the workspace");

    // Nor in what moat printed, its events or its records.
    QVERIFY(!inside.out.contains(rig.value) && !inside.err.contains(rig.value));
    QVERIFY2(!readFile(events).contains(rig.value), "the value is in the events");
    QVERIFY2(filesHolding(runner->stateDir(), rig.value).isEmpty(), "the value is in moat's records");
    int uses = 0, leaks = 0;
    const EventLog log = EventLog::read(events);
    for (const QJsonObject& event : log.events()) {
        const QString type = event.value(QStringLiteral("type")).toString();
        const QJsonObject data = event.value(QStringLiteral("data")).toObject();
        if (type == QStringLiteral("secret.use") || type == QStringLiteral("secret.leak_attempt")) {
            QCOMPARE(data.value(QStringLiteral("secret")).toString(), QStringLiteral("KEY"));
        }
        uses += type == QStringLiteral("secret.use");
        leaks += type == QStringLiteral("secret.leak_attempt");
    }
    QCOMPARE(uses, 1);
    QCOMPARE(leaks, 1);
}

void SecretExposure::aCoreDumpInsideHoldsNoValue_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SecretExposure::aCoreDumpInsideHoldsNoValue()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString pattern = corePattern();
    if (pattern.startsWith(QLatin1Char('|')) || pattern.startsWith(QLatin1Char('/'))) {
        QSKIP(qPrintable(QStringLiteral("kernel.core_pattern is '%1': core dumps do not land in the process's "
                                        "directory, where the test can find them")
                             .arg(pattern)));
    }
    SecretRig rig(runner, false);
    QVERIFY2(rig.problem.isEmpty(), qPrintable(rig.problem));
    const ProcessResult inside = runner->moatShell(
        rig.runOptions({QStringLiteral("--embedded")}),
        QStringLiteral("ulimit -c unlimited 2>/dev/null; ulimit -c; python3 exposure_dump.py %1 %2 %2 . --abort; "
                       "echo \"exit $?\"")
            .arg(kVariable, rig.nginx->url("/api")),
        rig.withBus);
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("bound 200\n") && inside.out.contains("exit 134"), qPrintable(inside.describe()));
    if (!inside.out.startsWith("unlimited\n")) {
        QSKIP(qPrintable(QStringLiteral("the core size limit cannot be raised here: ") + QString::fromUtf8(inside.out)));
    }
    QTRY_VERIFY_WITH_TIMEOUT(rig.nginx->accessLog().contains(rig.value), 5000);
    QCOMPARE(rig.nginx->requests().last().value(QStringLiteral("x_api_key")).toString().toUtf8(), rig.value);
    QString core;
    for (const QString& name : QDir(runner->workspace()).entryList({QStringLiteral("core*")}, QDir::Files)) {
        core = runner->workspace() + QLatin1Char('/') + name;
    }
    QVERIFY2(!core.isEmpty(), qPrintable(QStringLiteral("no core file in the workspace (core_pattern '%1'): ")
                                             .arg(pattern) +
                                         QDir(runner->workspace()).entryList().join(QLatin1Char(' '))));
    const QByteArray dump = readFile(core);
    // A real dump of the process that used the placeholder: it holds it.
    QVERIFY2(dump.contains("moat-placeholder-KEY-"), qPrintable(QStringLiteral("%1: %2 bytes").arg(core).arg(dump.size())));
    QVERIFY2(!dump.contains(rig.value), "the value is in a core dump made inside");
}

void SecretExposure::moatdHandsTheValueOverLikeMoat_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SecretExposure::moatdHandsTheValueOverLikeMoat()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    SecretRig rig(runner, true);
    QVERIFY2(rig.problem.isEmpty(), qPrintable(rig.problem));
    const ProcessResult inside = runner->moatShell(
        rig.runOptions(),
        QStringLiteral("echo \"in env: $%1\"; curl -sS --noproxy '' --proxy http://127.0.0.1:3128 "
                       "-H \"X-Api-Key: $%1\" %2")
            .arg(kVariable, rig.nginx->url("/through-moatd")),
        rig.withBus);
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(rig.bus->moatdPid() > 0, "the session did not go through moatd");
    QVERIFY2(inside.out.startsWith("in env: moat-placeholder-KEY-"), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("nginx saw GET /through-moatd"), qPrintable(inside.describe()));
    QVERIFY(!inside.out.contains(rig.value) && !inside.err.contains(rig.value));
    QTRY_VERIFY_WITH_TIMEOUT(rig.nginx->accessLog().contains(rig.value), 5000);
    const QJsonObject seen = rig.nginx->requests().last();
    QCOMPARE(seen.value(QStringLiteral("path")).toString(), QStringLiteral("/through-moatd"));
    QCOMPARE(seen.value(QStringLiteral("x_api_key")).toString().toUtf8(), rig.value);
    QVERIFY2(filesHolding(runner->stateDir(), rig.value).isEmpty(), "the value is in moat's records");
}

void SecretExposure::theSupervisorIsOutOfTheUsersReach()
{
    AccountRunner* runner = fixture_.user();
    if (!runner) {
        QSKIP("no ordinary test account (the suite creates one when it runs as root)");
    }
    // Another program of the same user (an agent run without moat, say)
    // reads a process's environment and memory like this.
    const QString attack = QStringLiteral(
        "import sys\n"
        "pid = sys.argv[1]\n"
        "try:\n"
        "    open('/proc/%s/environ' % pid, 'rb').read()\n"
        "    maps = open('/proc/%s/maps' % pid).readline().split()[0].split('-')\n"
        "    mem = open('/proc/%s/mem' % pid, 'rb', 0)\n"
        "    mem.seek(int(maps[0], 16))\n"
        "    mem.read(16)\n"
        "    print('read it')\n"
        "except OSError as e:\n"
        "    print('refused:', e.strerror)\n");
    auto victim = runner->startHost({QStringLiteral("/bin/sleep"), QStringLiteral("60")});
    QVERIFY(victim->waitForStarted());
    const ProcessResult outside =
        runner->host({QStringLiteral("python3"), QStringLiteral("-c"), attack, QString::number(victim->pid())});
    QVERIFY2(outside.out == "read it\n", qPrintable(outside.describe()));

    const QString name = QStringLiteral("reach-%1").arg(QRandomGenerator::global()->generate(), 0, 16);
    auto session = runner->startHost(runner->moatRunCommand({QStringLiteral("--embedded"), QStringLiteral("--name"), name},
                                                            {QStringLiteral("/bin/sleep"), QStringLiteral("60")}));
    pid_t supervisor = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const QString& id : runner->sessionIds()) {
                const QJsonObject status =
                    QJsonDocument::fromJson(readFile(runner->sessionDir(id) + QStringLiteral("/status.json"))).object();
                if (status.value(QStringLiteral("state")).toString() == QStringLiteral("running")) {
                    supervisor = status.value(QStringLiteral("supervisor_pid")).toInt();
                }
            }
            return supervisor > 0;
        }(),
        15000);
    const ProcessResult inside =
        runner->host({QStringLiteral("python3"), QStringLiteral("-c"), attack, QString::number(supervisor)});
    QVERIFY2(inside.out.startsWith("refused:"), qPrintable(inside.describe()));
    QVERIFY(runner->moat({QStringLiteral("stop"), name}).succeeded());
    session->stop();
}

QTEST_GUILESS_MAIN(SecretExposure)
#include "tst_secret_exposure.moc"
