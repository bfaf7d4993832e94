// SPDX-License-Identifier: Apache-2.0
// pip and npm install through the egress proxy as they are, taking it from
// HTTPS_PROXY like any agent's package manager would. The registry is
// tests/tools/egress-upstream.py's HTTPS port on the host's loopback, serving
// packages that tests/tools/package-registry.py makes for each row (a PEP 503
// simple index with a wheel; an npm package document with its tarball), all
// under names nobody else asks for. With --allow-host localhost:PORT and
// 127.0.0.1:PORT (the certificate names localhost; the proxy resolves it to
// the loopback, which must be allowed as an address as well) the package
// arrives and the tunnel is recorded as net.allow; without the flags the
// client fails with the proxy's 403, nothing reaches the registry, and the
// refusal is recorded as net.deny.
//
// NO_PROXY inside covers localhost and 127.0.0.1 (for moat's API), where the
// test registry also is; the clients run without it (env -u).

#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>
#include <memory>

#include "egressprobe.h"
#include "egresssandbox.h"
#include "egressupstream.h"
#include "eventlog.h"
#include "integrationfixture.h"
#include "netevents.h"
#include "subprocess.h"
#include "testcertificates.h"

namespace {

const QString kPython = QStringLiteral("/usr/bin/python3");

// A package name nobody else asks for: lower case, as both registries keep it.
QString packageName(const QString& label)
{
    return QStringLiteral("moat-it-%1-%2").arg(label).arg(QRandomGenerator::system()->generate64(), 0, 16);
}

QByteArray fileContent(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class EgressPackageManagers : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void pipInstallsThroughTheProxy_data();
    void pipInstallsThroughTheProxy();
    void npmInstallsThroughTheProxy_data();
    void npmInstallsThroughTheProxy();

private:
    QStringList sandbox(const QString& events, const QStringList& allowed) const
    {
        return sandbox_->options(events, allowed);
    }
    QStringList allowRegistry() const
    {
        const int port = upstream_.ports().https;
        return {EgressSandbox::localhost(port), EgressSandbox::loopback(port)};
    }
    // https://localhost:PORT, where the test registry answers.
    QString registry() const
    {
        return EgressUpstream::url(QStringLiteral("https"), QStringLiteral("localhost"), upstream_.ports().https);
    }
    // Writes packages into the upstream's static directory (package-registry.py's options).
    bool publish(const QStringList& packages, QString* error) const;
    // What is wrong with the session's record of its tunnels to the registry,
    // or an empty string: at least one net.allow, each for localhost...
    QString tunnelsAllowed(const QString& events) const;
    // ...or at least one net.deny suggesting --allow-host localhost:PORT, and no net.allow.
    QString tunnelsRefused(const QString& events) const;

    IntegrationFixture fixture_;
    TestCertificates certificates_;
    EgressUpstream upstream_;
    std::unique_ptr<EgressSandbox> sandbox_;
    QString pipMissing_;
};

void EgressPackageManagers::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    // The upstream serves a git repository too, and needs git to make it.
    for (const QString& program : {QStringLiteral("/usr/bin/git"), TestCertificates::openssl()}) {
        if (!QFileInfo(program).isExecutable()) {
            QSKIP(qPrintable(program + QStringLiteral(" is not installed (scripts/install-deps.sh)")));
        }
    }
    QVERIFY2(certificates_.create(&error), qPrintable(error));
    QVERIFY2(upstream_.start(fixture_.install(), certificates_, &error), qPrintable(error));
    sandbox_ = std::make_unique<EgressSandbox>(fixture_.install(), certificates_);

    Subprocess::Request pip;
    pip.argv = QStringList{kPython, QStringLiteral("-m"), QStringLiteral("pip"), QStringLiteral("--version")};
    pip.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    const ProcessResult version = Subprocess::run(pip);
    if (!version.succeeded()) {
        pipMissing_ =
            QStringLiteral("%1 -m pip does not run (apt-get install python3-pip; scripts/install-deps.sh): %2")
                .arg(kPython, version.describe());
    }
}

void EgressPackageManagers::init()
{
    fixture_.renewWorkspaces();
}

void EgressPackageManagers::cleanupTestCase()
{
    fixture_.tearDown();
}

bool EgressPackageManagers::publish(const QStringList& packages, QString* error) const
{
    Subprocess::Request request;
    request.argv = QStringList{kPython,
                               fixture_.install().tool(QStringLiteral("package-registry.py")),
                               QStringLiteral("--root"),
                               upstream_.staticDir(),
                               QStringLiteral("--url"),
                               registry(),
                               QStringLiteral("--marker"),
                               QString::fromLatin1(upstream_.marker())} +
                   packages;
    request.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    const ProcessResult result = Subprocess::run(request);
    if (!result.succeeded()) {
        *error = result.describe();
        return false;
    }
    return true;
}

QString EgressPackageManagers::tunnelsAllowed(const QString& events) const
{
    const NetEvents recorded(EventLog::read(events));
    const QList<QJsonObject> allowed =
        recorded.to(QStringLiteral("net.allow"), upstream_.ports().https, QStringLiteral("connect"));
    bool localhost = !allowed.isEmpty();
    for (const QJsonObject& event : allowed) {
        localhost = localhost && event.value(QStringLiteral("host")).toString() == QLatin1String("localhost");
    }
    return localhost ? QString() : QStringLiteral("expected net.allow connect to localhost; ") + recorded.describe();
}

QString EgressPackageManagers::tunnelsRefused(const QString& events) const
{
    const int port = upstream_.ports().https;
    const NetEvents recorded(EventLog::read(events));
    const QList<QJsonObject> denied = recorded.to(QStringLiteral("net.deny"), port, QStringLiteral("connect"));
    const QString suggestion = QStringLiteral("--allow-host ") + EgressSandbox::localhost(port);
    const bool refused = !denied.isEmpty() &&
                         denied.first().value(QStringLiteral("suggestion")).toString() == suggestion &&
                         recorded.to(QStringLiteral("net.allow"), port).isEmpty();
    return refused ? QString()
                   : QStringLiteral("expected net.deny connect suggesting %1 and no net.allow; ").arg(suggestion) +
                         recorded.describe();
}

void EgressPackageManagers::pipInstallsThroughTheProxy_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressPackageManagers::pipInstallsThroughTheProxy()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (!pipMissing_.isEmpty()) {
        QSKIP(qPrintable(pipMissing_));
    }
    const QString name = packageName(QStringLiteral("pip"));
    const QString refusedName = packageName(QStringLiteral("pip-refused"));
    QString error;
    QVERIFY2(publish({QStringLiteral("--pip"), name, QStringLiteral("--pip"), refusedName}, &error), qPrintable(error));
    // pip install --target needs no virtual environment and is not refused as
    // an externally managed install. One retry: pip prints why it retried
    // (the proxy's answer) and otherwise says only "no matching distribution".
    const auto pipInstall = [&](const QString& package, const QString& target) {
        return EgressSandbox::throughProxy(
            {kPython, QStringLiteral("-m"), QStringLiteral("pip"), QStringLiteral("install"),
             QStringLiteral("--no-cache-dir"), QStringLiteral("--disable-pip-version-check"),
             QStringLiteral("--retries"), QStringLiteral("1"), QStringLiteral("--timeout"), QStringLiteral("10"),
             QStringLiteral("--cert"), certificates_.caFile(), QStringLiteral("--index-url"),
             registry() + QStringLiteral("/simple/"), QStringLiteral("--target"), target, package});
    };
    const QString module = QString(name).replace(QLatin1Char('-'), QLatin1Char('_'));
    const QString wheel = QStringLiteral("/packages/%1-1.0-py3-none-any.whl").arg(module);

    const QString target = runner->workspace() + QStringLiteral("/site");
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("pip"));
    const ProcessResult inside =
        runner->moatRun(sandbox(events, allowRegistry()), pipInstall(name, target), EgressSandbox::patient(60000));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("Successfully installed " + name.toUtf8()), qPrintable(inside.describe()));
    QVERIFY2(upstream_.arrived(QStringLiteral("/simple/%1/").arg(name)) && upstream_.arrived(wheel),
             upstream_.log().constData());
    const QByteArray installed = fileContent(target + QLatin1Char('/') + module + QStringLiteral(".py"));
    QVERIFY2(installed.contains("MARKER = '" + upstream_.marker() + "'"),
             qPrintable(QStringLiteral("%1/%2.py holds \"%3\"; ").arg(target, module, QString::fromUtf8(installed)) +
                        inside.describe()));
    const QString tunnels = tunnelsAllowed(events);
    QVERIFY2(tunnels.isEmpty(), qPrintable(tunnels));

    // The flags made the difference: without them pip gets the proxy's 403
    // for its tunnel, and the index never hears of the package.
    const QString refusedTarget = runner->workspace() + QStringLiteral("/site-refused");
    const QString refusedEvents = EgressSandbox::eventsFile(*runner, QStringLiteral("pip-refused"));
    const ProcessResult refused = runner->moatRun(sandbox(refusedEvents, {}), pipInstall(refusedName, refusedTarget),
                                                  EgressSandbox::patient(60000));
    QVERIFY2(!refused.succeeded() && refused.started && !refused.timedOut, qPrintable(refused.describe()));
    QVERIFY2(refused.err.contains("ProxyError") && refused.err.contains("403"), qPrintable(refused.describe()));
    QVERIFY2(!upstream_.arrived(QStringLiteral("/simple/%1/").arg(refusedName)), upstream_.log().constData());
    QVERIFY(!QFileInfo::exists(refusedTarget));
    const QString denied = tunnelsRefused(refusedEvents);
    QVERIFY2(denied.isEmpty(), qPrintable(denied));
}

void EgressPackageManagers::npmInstallsThroughTheProxy_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressPackageManagers::npmInstallsThroughTheProxy()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult which = runner->moatShell({}, QStringLiteral("command -v npm"));
    if (!which.succeeded()) {
        QSKIP(qPrintable(QStringLiteral("npm is not on PATH inside the sandbox (scripts/install-deps.sh leaves "
                                        "nodejs and npm out, being large): ") +
                         which.describe()));
    }
    const QString name = packageName(QStringLiteral("npm"));
    const QString refusedName = packageName(QStringLiteral("npm-refused"));
    QString error;
    QVERIFY2(publish({QStringLiteral("--npm"), name, QStringLiteral("--npm"), refusedName}, &error), qPrintable(error));
    // --cafile, not NODE_EXTRA_CA_CERTS: a cafile in npm's own configuration
    // (a distribution's global npmrc may set one) replaces Node's trusted CAs,
    // extra ones included. The update check would ask the registry for npm.
    const auto npmInstall = [&](const QString& package, const QString& project) {
        const QString cache = runner->workspace() + QStringLiteral("/npm-cache");
        const QString npm =
            EgressProbe::shellLine({QStringLiteral("npm"), QStringLiteral("install"), QStringLiteral("--registry"),
                                    registry() + QLatin1Char('/'), QStringLiteral("--cafile"), certificates_.caFile(),
                                    QStringLiteral("--cache"), cache, QStringLiteral("--no-audit"),
                                    QStringLiteral("--no-fund"), QStringLiteral("--update-notifier=false"), package});
        return EgressSandbox::throughProxy(
            {QStringLiteral("/bin/sh"), QStringLiteral("-c"),
             QStringLiteral("mkdir -p %1 && cd %1 && %2").arg(EgressProbe::shellQuote(project), npm)});
    };

    const QString project = runner->workspace() + QStringLiteral("/project");
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("npm"));
    const ProcessResult inside =
        runner->moatRun(sandbox(events, allowRegistry()), npmInstall(name, project), EgressSandbox::patient(60000));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(
        upstream_.arrived(QLatin1Char('/') + name) && upstream_.arrived(QStringLiteral("/%1/-/%1-1.0.0.tgz").arg(name)),
        upstream_.log().constData());
    const QString manifest = QStringLiteral("%1/node_modules/%2/package.json").arg(project, name);
    const QByteArray installed = fileContent(manifest);
    QVERIFY2(installed.contains(upstream_.marker()),
             qPrintable(QStringLiteral("%1 holds \"%2\"; ").arg(manifest, QString::fromUtf8(installed)) +
                        inside.describe()));
    const QString tunnels = tunnelsAllowed(events);
    QVERIFY2(tunnels.isEmpty(), qPrintable(tunnels));

    // Without the flags npm reports the proxy's 403 as the registry's (E403).
    const QString refusedProject = runner->workspace() + QStringLiteral("/project-refused");
    const QString refusedEvents = EgressSandbox::eventsFile(*runner, QStringLiteral("npm-refused"));
    const ProcessResult refused = runner->moatRun(sandbox(refusedEvents, {}), npmInstall(refusedName, refusedProject),
                                                  EgressSandbox::patient(60000));
    QVERIFY2(!refused.succeeded() && refused.started && !refused.timedOut, qPrintable(refused.describe()));
    QVERIFY2(refused.err.contains("403"), qPrintable(refused.describe()));
    QVERIFY2(!upstream_.arrived(QLatin1Char('/') + refusedName), upstream_.log().constData());
    QVERIFY(!QFileInfo::exists(QStringLiteral("%1/node_modules/%2").arg(refusedProject, refusedName)));
    const QString denied = tunnelsRefused(refusedEvents);
    QVERIFY2(denied.isEmpty(), qPrintable(denied));
}

QTEST_GUILESS_MAIN(EgressPackageManagers)
#include "tst_egress_package_managers.moc"
