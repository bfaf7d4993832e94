// SPDX-License-Identifier: Apache-2.0
// moat probe and moat claims, run for real: on the host as root and as an
// ordinary user (where the seed's probe finds what an unsandboxed agent would
// reach), inside a fresh default sandbox (criteria 2-7 A, criterion 1 honest
// about a shared kernel), inside sandboxes weakened on purpose (each flag
// lowers exactly the grades docs/probe.md says), and every claim of
// `moat claims` verified by a probe check that passes.

#include "hostsnapshot.h"
#include "integrationfixture.h"
#include "moatdbus.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

struct Report {
    QJsonObject json;
    QMap<int, QString> grades;
    QMap<QString, QJsonObject> checks;
};

Report parseReport(const ProcessResult& result)
{
    Report report;
    report.json = QJsonDocument::fromJson(result.out).object();
    for (const QJsonValue& criterion : report.json.value(QStringLiteral("criteria")).toArray()) {
        report.grades.insert(criterion.toObject().value(QStringLiteral("id")).toInt(),
                             criterion.toObject().value(QStringLiteral("grade")).toString());
    }
    for (const QJsonValue& check : report.json.value(QStringLiteral("checks")).toArray()) {
        report.checks.insert(check.toObject().value(QStringLiteral("name")).toString(), check.toObject());
    }
    return report;
}

QString gradeLine(const Report& report)
{
    QStringList grades;
    for (auto it = report.grades.begin(); it != report.grades.end(); ++it) {
        grades.append(QStringLiteral("%1:%2").arg(it.key()).arg(it.value()));
    }
    QStringList failing;
    for (auto it = report.checks.begin(); it != report.checks.end(); ++it) {
        if (!it.value().value(QStringLiteral("ok")).toBool()) {
            failing.append(it.key() + QStringLiteral(" (") + it.value().value(QStringLiteral("detail")).toString() +
                           QStringLiteral(")"));
        }
    }
    return grades.join(QLatin1Char(' ')) + QStringLiteral("\nnot ok: ") + failing.join(QStringLiteral("; "));
}

// What a probe left on the host: mounts, processes of the install, and
// entries of /tmp that are moat's (other programs on a shared machine, such
// as a compiler, come and go in /tmp meanwhile).
QStringList leftBehind(const HostSnapshot& before, const QString& installDir)
{
    QStringList left = HostSnapshot::take(installDir).newSince(before);
    left.removeIf([](const QString& entry) {
        return entry.startsWith(QStringLiteral("new entry in /tmp")) && !entry.contains(QStringLiteral("/tmp/moat"));
    });
    return left;
}

QStringList leftoverProbeWorkspaces()
{
    return QDir(QStringLiteral("/tmp")).entryList({QStringLiteral("moat-probe-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
}

}  // namespace

class Probe : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void hostProbeFindsWhatAnUnsandboxedAgentReaches_data();
    void hostProbeFindsWhatAnUnsandboxedAgentReaches();
    void defaultSandboxGradesAOnTwoToSeven_data();
    void defaultSandboxGradesAOnTwoToSeven();
    void throughMoatdTheKeychainsBusIsOutOfReach_data();
    void throughMoatdTheKeychainsBusIsOutOfReach();
    void aDirectoryMountedElsewhereIsFoundByDeviceAndInode_data();
    void aDirectoryMountedElsewhereIsFoundByDeviceAndInode();
    void weakenedSandboxLowersExactlyItsGrades_data();
    void weakenedSandboxLowersExactlyItsGrades();
    void everyClaimIsVerifiedByAPassingCheck_data();
    void everyClaimIsVerifiedByAPassingCheck();
    void readableReportCard_data();
    void readableReportCard();
    void badInvocationsFailClearlyAndLeaveNothing_data();
    void badInvocationsFailClearlyAndLeaveNothing();

private:
    IntegrationFixture fixture_;
};

void Probe::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void Probe::init()
{
    fixture_.renewWorkspaces();
}

void Probe::cleanupTestCase()
{
    fixture_.tearDown();
}

void Probe::hostProbeFindsWhatAnUnsandboxedAgentReaches_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

// The attack side: the same account with no sandbox. Root holds every
// capability (criterion 3 D); the ordinary user can write moat's own records
// (criterion 7 D); neither is more than a process on this machine (1 not A).
void Probe::hostProbeFindsWhatAnUnsandboxedAgentReaches()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const HostSnapshot before = HostSnapshot::take(fixture_.install().dir());
    const ProcessResult result = runner->moat({QStringLiteral("probe"), QStringLiteral("--host"), QStringLiteral("--json")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));
    // Read-only: no mount, process or file in /tmp is left by the checks.
    const QStringList left = leftBehind(before, fixture_.install().dir());
    QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char('\n'))));
    const Report report = parseReport(result);
    QCOMPARE(report.json.value(QStringLiteral("target")).toString(), QStringLiteral("host"));
    QCOMPARE(report.grades.keys(), (QList<int>{1, 2, 3, 4, 5, 6, 7}));
    QVERIFY2(report.grades.value(1) != QStringLiteral("A"), qPrintable(gradeLine(report)));
    QCOMPARE(report.grades.value(7), QStringLiteral("D"));  // this account can write its own records
    if (runner->account().isRoot()) {
        QCOMPARE(report.grades.value(3), QStringLiteral("D"));
        QVERIFY(!report.checks.value(QStringLiteral("cap_eff_zero")).value(QStringLiteral("ok")).toBool());
    }
    // Checks that only mean something inside are never run on the host
    // (landlock_enforced would create a device node as root).
    for (const char* insideOnly : {"landlock_enforced", "sandbox_namespaces", "proxy_refuses_raw_ip", "mount_view"}) {
        QVERIFY2(!report.checks.contains(QLatin1String(insideOnly)), insideOnly);
    }
}

void Probe::defaultSandboxGradesAOnTwoToSeven_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Probe::defaultSandboxGradesAOnTwoToSeven()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QStringList before = leftoverProbeWorkspaces();
    const HostSnapshot snapshot = HostSnapshot::take(fixture_.install().dir());
    const ProcessResult result = runner->moat({QStringLiteral("probe"), QStringLiteral("--json")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));
    const Report report = parseReport(result);
    QCOMPARE(report.json.value(QStringLiteral("target")).toString(), QStringLiteral("sandbox"));
    QCOMPARE(report.json.value(QStringLiteral("flags")).toArray().size(), 0);
    for (int id = 2; id <= 7; ++id) {
        QVERIFY2(report.grades.value(id) == QStringLiteral("A"), qPrintable(gradeLine(report)));
    }
    // Criterion 1 says what the boundary is: never A, and in words.
    QVERIFY2(report.grades.value(1) == QStringLiteral("B") || report.grades.value(1) == QStringLiteral("C"),
             qPrintable(gradeLine(report)));
    const QJsonObject first = report.json.value(QStringLiteral("criteria")).toArray().at(0).toObject();
    bool honest = false;
    for (const QJsonValue& line : first.value(QStringLiteral("evidence")).toArray()) {
        honest = honest || line.toString().contains(QStringLiteral("shared kernel, not a VM"));
    }
    QVERIFY2(honest, qPrintable(QJsonDocument(first).toJson()));
    // The inside checks ran and saw the sandbox's layers.
    for (const char* name : {"sandbox_namespaces", "procfs_private", "landlock_enforced", "seccomp_filter_denies",
                             "mount_view", "proxy_refuses_unlisted", "proxy_refuses_raw_ip", "proxy_refuses_metadata",
                             "dns_stub_refuses", "keychain_unreachable", "real_home_reachable", "records_reachable",
                             "checkpoints_reachable", "inner_sandbox_layers"}) {
        QVERIFY2(report.checks.value(QLatin1String(name)).value(QStringLiteral("ok")).toBool(),
                 qPrintable(QLatin1String(name) + QStringLiteral(": ") + gradeLine(report)));
    }
    // What the agent cannot do, said plainly: nest namespaces of its own.
    QVERIFY(!report.checks.value(QStringLiteral("userns_procfs")).value(QStringLiteral("ok")).toBool());
    // The probe's session is a session like any other: recorded, and gone.
    QVERIFY2(!runner->sessionIds().isEmpty(), "no session records for the probe's sandbox");
    QCOMPARE(leftoverProbeWorkspaces(), before);
    const QStringList left = leftBehind(snapshot, fixture_.install().dir());
    QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char('\n'))));
}

void Probe::throughMoatdTheKeychainsBusIsOutOfReach_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

// With a session bus that has moatd and a real keychain, `moat probe` starts
// its sandbox through moatd like any session, and the probe inside tries the
// very bus the keychain and moatd listen on: reachable outside, not inside.
void Probe::throughMoatdTheKeychainsBusIsOutOfReach()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    MoatdBus bus(runner);
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    RunOptions withBus;
    withBus.environment = bus.environment();

    // Outside: the bus accepts this account (the keychain and moatd are one call away).
    const ProcessResult outside = runner->host(
        {QStringLiteral("python3"), QStringLiteral("-c"),
         QStringLiteral("import os,socket; s=socket.socket(socket.AF_UNIX); "
                        "s.connect(os.environ['DBUS_SESSION_BUS_ADDRESS'].split('=',1)[1].split(',')[0]); print('connected')")},
        withBus);
    QVERIFY2(outside.succeeded() && outside.out.contains("connected"), qPrintable(outside.describe()));

    const ProcessResult result = runner->moat({QStringLiteral("probe"), QStringLiteral("--json")}, withBus);
    QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));
    const Report report = parseReport(result);
    for (int id = 2; id <= 7; ++id) {
        QVERIFY2(report.grades.value(id) == QStringLiteral("A"), qPrintable(gradeLine(report)));
    }
    const QJsonObject keychain = report.checks.value(QStringLiteral("keychain_unreachable"));
    QVERIFY2(keychain.value(QStringLiteral("ok")).toBool(), qPrintable(gradeLine(report)));
    QVERIFY2(keychain.value(QStringLiteral("detail")).toString().contains(bus.runtimeDir()),
             qPrintable(keychain.value(QStringLiteral("detail")).toString()));
    // moatd started it: it is there, and it knows the session.
    QVERIFY2(bus.moatdPid() > 0, "moatd did not start the probe's sandbox");
    RunOptions listing = withBus;
    const ProcessResult ps = runner->moat({QStringLiteral("ps"), QStringLiteral("--all"), QStringLiteral("--json")}, listing);
    QVERIFY2(ps.succeeded() && QJsonDocument::fromJson(ps.out).array().size() >= 1, qPrintable(ps.describe()));
}

void Probe::aDirectoryMountedElsewhereIsFoundByDeviceAndInode_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

// The reach checks must be able to fail: the agent's HOME is a host directory
// (moat's homes/default) mounted at another path. Named as "the real home",
// the check must find it there by device and inode, not by path.
void Probe::aDirectoryMountedElsewhereIsFoundByDeviceAndInode()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult first = runner->moatRun({}, {QStringLiteral("true")});  // makes homes/default
    QVERIFY2(first.succeeded(), qPrintable(first.describe()));
    const QString agentHome = runner->stateDir() + QStringLiteral("/homes/default");
    QVERIFY2(QFileInfo(agentHome).isDir(), qPrintable(agentHome));

    const QString workspace = runner->newDirectory(QStringLiteral("probe-ws"));
    const QString probe = workspace + QStringLiteral("/moat-probe");
    QVERIFY(QFile::copy(fixture_.install().dir() + QStringLiteral("/moat-probe"), probe));
    QVERIFY(QFile::setPermissions(probe, QFile::permissions(probe) | QFileDevice::ExeOther | QFileDevice::ReadOther |
                                             QFileDevice::ExeGroup | QFileDevice::ReadGroup));
    RunOptions homeIsTheAgents;
    homeIsTheAgents.environment.insert(QStringLiteral("HOME"), agentHome);
    const ProcessResult context = runner->host({probe, QStringLiteral("--context"), workspace}, homeIsTheAgents);
    QVERIFY2(context.succeeded(), qPrintable(context.describe()));

    const ProcessResult inside = runner->moatRun({QStringLiteral("--workspace"), workspace},
                                                 {probe, QStringLiteral("--inside"), context.stdOut().trimmed()});
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QJsonObject home;
    for (const QJsonValue& check : QJsonDocument::fromJson(inside.out).object().value(QStringLiteral("checks")).toArray()) {
        if (check.toObject().value(QStringLiteral("name")).toString() == QStringLiteral("real_home_reachable")) {
            home = check.toObject();
        }
    }
    QVERIFY2(!home.isEmpty(), inside.out.constData());
    QVERIFY2(!home.value(QStringLiteral("ok")).toBool(), qPrintable(QJsonDocument(home).toJson()));
    const QString insideHome = runner->account().isRoot() ? QStringLiteral("/home/agent") : QStringLiteral("/home/");
    QVERIFY2(home.value(QStringLiteral("detail")).toString().contains(QStringLiteral("reachable at ") + insideHome),
             qPrintable(QJsonDocument(home).toJson()));
}

void Probe::weakenedSandboxLowersExactlyItsGrades_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("expected");  // grades 1..7, '.' = the default sandbox's grade
    for (const char* account : {"root", "user"}) {
        const QString tag = QLatin1String(account);
        // --net open: raw IPs are routed (5 D), and so is the metadata address (4 B).
        QTest::newRow(qPrintable(tag + QStringLiteral(" --net open")))
            << tag << QStringList{QStringLiteral("--net"), QStringLiteral("open")} << QStringLiteral("...BD..");
        // --sudo: the agent holds capabilities in its own user namespace (3 D).
        QTest::newRow(qPrintable(tag + QStringLiteral(" --sudo")))
            << tag << QStringList{QStringLiteral("--sudo")} << QStringLiteral("..D....");
        // --allow-degraded on a kernel that has both layers: they are applied
        // all the same, so nothing is lowered.
        QTest::newRow(qPrintable(tag + QStringLiteral(" --allow-degraded")))
            << tag << QStringList{QStringLiteral("--allow-degraded"), QStringLiteral("landlock"),
                                  QStringLiteral("--allow-degraded"), QStringLiteral("seccomp")}
            << QStringLiteral(".......");
        // --allow-host: a destination allowed on purpose lowers nothing.
        QTest::newRow(qPrintable(tag + QStringLiteral(" --allow-host")))
            << tag << QStringList{QStringLiteral("--allow-host"), QStringLiteral("example.com")}
            << QStringLiteral(".......");
    }
}

void Probe::weakenedSandboxLowersExactlyItsGrades()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QStringList, flags);
    QFETCH(QString, expected);
    const ProcessResult plain = runner->moat({QStringLiteral("probe"), QStringLiteral("--json")});
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.describe()));
    const ProcessResult weakened = runner->moat(QStringList{QStringLiteral("probe"), QStringLiteral("--json")} + flags);
    QVERIFY2(weakened.exitCode == 0, qPrintable(weakened.describe()));
    const Report base = parseReport(plain);
    const Report report = parseReport(weakened);
    if (expected.contains(QLatin1Char('D')) && flags.contains(QStringLiteral("open")) &&
        runner->host({QStringLiteral("ip"), QStringLiteral("route"), QStringLiteral("get"), QStringLiteral("1.1.1.1")})
                .exitCode != 0) {
        QSKIP("this machine has no route to public addresses, so --net open cannot lower the egress grade here");
    }
    for (int id = 1; id <= 7; ++id) {
        const QChar want = expected.at(id - 1);
        const QString grade = want == QLatin1Char('.') ? base.grades.value(id) : QString(want);
        QVERIFY2(report.grades.value(id) == grade,
                 qPrintable(QStringLiteral("criterion %1: want %2\nweakened %3\ndefault %4")
                                .arg(id)
                                .arg(grade, gradeLine(report), gradeLine(base))));
    }
}

void Probe::everyClaimIsVerifiedByAPassingCheck_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Probe::everyClaimIsVerifiedByAPassingCheck()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult claims = runner->moat({QStringLiteral("claims"), QStringLiteral("--json")});
    QVERIFY2(claims.exitCode == 0, qPrintable(claims.describe()));
    const QJsonArray list = QJsonDocument::fromJson(claims.out).object().value(QStringLiteral("claims")).toArray();
    QVERIFY2(list.size() >= 10, claims.out.constData());
    const ProcessResult probe = runner->moat({QStringLiteral("probe"), QStringLiteral("--json")});
    QVERIFY2(probe.exitCode == 0, qPrintable(probe.describe()));
    const Report report = parseReport(probe);
    for (const QJsonValue& value : list) {
        const QJsonObject claim = value.toObject();
        const QString check = claim.value(QStringLiteral("check")).toString();
        QVERIFY2(report.checks.contains(check),
                 qPrintable(claim.value(QStringLiteral("id")).toString() + QStringLiteral(": no check ") + check));
        QVERIFY2(report.checks.value(check).value(QStringLiteral("ok")).toBool(),
                 qPrintable(claim.value(QStringLiteral("id")).toString() + QStringLiteral(": ") + check +
                            QStringLiteral(" not ok: ") +
                            report.checks.value(check).value(QStringLiteral("detail")).toString()));
    }
}

void Probe::readableReportCard_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Probe::readableReportCard()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult result = runner->moat({QStringLiteral("probe")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));
    const QString card = result.stdOut();
    QVERIFY2(card.contains(QStringLiteral("inside a fresh sandbox")), qPrintable(card));
    for (int id = 2; id <= 7; ++id) {
        QVERIFY2(card.contains(QStringLiteral("A  %1. ").arg(id)), qPrintable(card));
    }
    QVERIFY2(card.contains(QStringLiteral("not a VM")), qPrintable(card));
}

void Probe::badInvocationsFailClearlyAndLeaveNothing_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Probe::badInvocationsFailClearlyAndLeaveNothing()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QStringList before = leftoverProbeWorkspaces();
    const QStringList sessionsBefore = runner->sessionIds();

    // --host with a sandbox flag is a contradiction, said before anything runs.
    const ProcessResult both =
        runner->moat({QStringLiteral("probe"), QStringLiteral("--host"), QStringLiteral("--sudo")});
    QCOMPARE(both.exitCode, 125);
    QVERIFY2(both.stdErr().contains(QStringLiteral("--host")), qPrintable(both.describe()));

    // A sandbox moat run refuses: moat run's own words, exit 125.
    const ProcessResult refused =
        runner->moat({QStringLiteral("probe"), QStringLiteral("--net"), QStringLiteral("sideways")});
    QCOMPARE(refused.exitCode, 125);
    QVERIFY2(refused.stdErr().contains(QStringLiteral("did not run")), qPrintable(refused.describe()));
    QVERIFY2(refused.stdErr().contains(QStringLiteral("--net")), qPrintable(refused.describe()));

    // Nowhere to put the workspace.
    RunOptions noTmp;
    noTmp.environment.insert(QStringLiteral("TMPDIR"), QStringLiteral("/nonexistent/moat"));
    const ProcessResult noWorkspace = runner->moat({QStringLiteral("probe")}, noTmp);
    QCOMPARE(noWorkspace.exitCode, 125);
    QVERIFY2(noWorkspace.stdErr().contains(QStringLiteral("TMPDIR")), qPrintable(noWorkspace.describe()));

    // moat-probe by hand, or handed a forged context: refused, nothing printed on stdout.
    const QString probe = fixture_.install().dir() + QStringLiteral("/moat-probe");
    const ProcessResult byHand = runner->host({probe});
    QCOMPARE(byHand.exitCode, 125);
    QVERIFY(byHand.out.isEmpty());
    const ProcessResult forged = runner->host({probe, QStringLiteral("--inside"), QStringLiteral("{\"namespaces\":1}")});
    QCOMPARE(forged.exitCode, 125);
    QVERIFY(forged.out.isEmpty());

    QCOMPARE(leftoverProbeWorkspaces(), before);
    QCOMPARE(runner->sessionIds(), sessionsBefore);
}

QTEST_GUILESS_MAIN(Probe)
#include "tst_probe.moc"
