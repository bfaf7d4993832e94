// SPDX-License-Identifier: Apache-2.0
// What a hostile agent feeds the egress proxy instead of requests: malformed
// and oversized ones, a client that sends a byte a second, an upstream that
// never answers or refuses, thousands of idle connections. Each gets a
// bounded, clear answer (an HTTP status with a reason, or a closed
// connection), nothing reaches the upstream that should not, and a normal
// request from the same sandbox still goes through.
//
// NO_PROXY inside covers 127.0.0.1, where the test upstream is; the probe
// talks to the proxy's port directly.

#include <QFileInfo>
#include <QTest>
#include <memory>

#include "egressprobe.h"
#include "egresssandbox.h"
#include "egressupstream.h"
#include "eventlog.h"
#include "integrationfixture.h"
#include "loopbackport.h"
#include "netevents.h"
#include "testcertificates.h"

class EgressBadInput : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void malformedRequestsAreRefused_data();
    void malformedRequestsAreRefused();
    void oversizedRequestsAreRefused_data();
    void oversizedRequestsAreRefused();
    void slowPeersAreCutOffWhileOthersAreServed_data();
    void slowPeersAreCutOffWhileOthersAreServed();
    void unreachableUpstreamGets502_data();
    void unreachableUpstreamGets502();
    void idleConnectionsDoNotStarveOthers_data();
    void idleConnectionsDoNotStarveOthers();

private:
    QStringList sandbox(const QString& events, const QStringList& allowed) const
    {
        return sandbox_->options(events, allowed);
    }
    QString proxyRequest(const QString& request, int timeoutSeconds = 30) const
    {
        return probe_->httpProxyRequest(request, timeoutSeconds);
    }
    static QString absoluteRequest(const QString& authority, const QString& path)
    {
        return EgressProbe::absoluteRequest(authority, path);
    }

    IntegrationFixture fixture_;
    TestCertificates certificates_;
    EgressUpstream upstream_;
    std::unique_ptr<EgressSandbox> sandbox_;
    std::unique_ptr<EgressProbe> probe_;
};

void EgressBadInput::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    // The upstream serves HTTPS too, which needs the test certificates.
    if (!QFileInfo(TestCertificates::openssl()).isExecutable()) {
        QSKIP("openssl is not installed (scripts/install-deps.sh)");
    }
    QVERIFY2(certificates_.create(&error), qPrintable(error));
    QVERIFY2(upstream_.start(fixture_.install(), certificates_, &error), qPrintable(error));
    sandbox_ = std::make_unique<EgressSandbox>(fixture_.install(), certificates_);
    probe_ = std::make_unique<EgressProbe>(fixture_.install());
}

void EgressBadInput::init()
{
    fixture_.renewWorkspaces();
}

void EgressBadInput::cleanupTestCase()
{
    fixture_.tearDown();
}

void EgressBadInput::malformedRequestsAreRefused_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressBadInput::malformedRequestsAreRefused()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().http;
    const QString target = QStringLiteral("http://%1").arg(EgressSandbox::loopback(port));
    const QString path = EgressUpstream::uniquePath(QStringLiteral("malformed"));
    const QMap<QString, QString> requests{
        {QStringLiteral("garbage"), QStringLiteral("NOT A REQUEST\\r\\n\\r\\n")},
        {QStringLiteral("no version"), QStringLiteral("GET %1%2\\r\\n\\r\\n").arg(target, path)},
        {QStringLiteral("header without a colon"),
         QStringLiteral("GET %1%2 HTTP/1.1\\r\\nHost: %3\\r\\nNoColonHere\\r\\n\\r\\n")
             .arg(target, path, EgressSandbox::loopback(port))},
        {QStringLiteral("space before the colon"), QStringLiteral("GET %1%2 HTTP/1.1\\r\\nHost : %3\\r\\n\\r\\n")
                                                       .arg(target, path, EgressSandbox::loopback(port))},
        {QStringLiteral("control bytes in the target"),
         QStringLiteral("GET %1%2\\x01\\x7f HTTP/1.1\\r\\nHost: %3\\r\\n\\r\\n")
             .arg(target, path, EgressSandbox::loopback(port))},
        // TLS goes through CONNECT; the proxy never makes a TLS connection of its own.
        {QStringLiteral("https in a plain request"),
         QStringLiteral("GET https://%1%2 HTTP/1.1\\r\\nHost: %1\\r\\n\\r\\n")
             .arg(EgressSandbox::loopback(port), path)},
        {QStringLiteral("two Host headers"),
         QStringLiteral("GET %1%2 HTTP/1.1\\r\\nHost: %3\\r\\nHost: evil.example\\r\\n\\r\\n")
             .arg(target, path, EgressSandbox::loopback(port))},
    };
    QString script;
    for (auto it = requests.cbegin(); it != requests.cend(); ++it) {
        script += probe_->attempt(it.key(), proxyRequest(it.value(), 10));
    }
    const ProcessResult inside = runner->moatShell(
        sandbox(EgressSandbox::eventsFile(*runner, QStringLiteral("malformed")), {EgressSandbox::loopback(port)}),
        script, EgressSandbox::patient(90000));
    const QMap<QString, QByteArray> parts = EgressProbe::sections(inside.out);
    for (auto it = requests.cbegin(); it != requests.cend(); ++it) {
        QVERIFY2(EgressProbe::status(parts.value(it.key())) == 400,
                 qPrintable(it.key() + QStringLiteral(": ") + inside.describe()));
    }
    QVERIFY(!upstream_.arrived(path));
}

void EgressBadInput::oversizedRequestsAreRefused_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressBadInput::oversizedRequestsAreRefused()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().http;
    const QString authority = EgressSandbox::loopback(port);
    const QString path = EgressUpstream::uniquePath(QStringLiteral("oversized"));
    const QString script =
        probe_->attempt(QStringLiteral("header"),
                        proxyRequest(QStringLiteral("GET http://%1%2 HTTP/1.1\\r\\nHost: %1\\r\\nX-Big: {pad:65536}"
                                                    "\\r\\n\\r\\n")
                                         .arg(authority, path),
                                     10)) +
        probe_->attempt(
            QStringLiteral("target"),
            proxyRequest(
                QStringLiteral("GET http://%1%2?{pad:9000} HTTP/1.1\\r\\nHost: %1\\r\\n\\r\\n").arg(authority, path),
                10)) +
        probe_->attempt(
            QStringLiteral("afterwards"),
            proxyRequest(absoluteRequest(authority, EgressUpstream::uniquePath(QStringLiteral("after-oversized")))));
    const ProcessResult inside =
        runner->moatShell(sandbox(EgressSandbox::eventsFile(*runner, QStringLiteral("oversized")), {authority}), script,
                          EgressSandbox::patient(60000));
    const QMap<QString, QByteArray> parts = EgressProbe::sections(inside.out);
    QVERIFY2(EgressProbe::status(parts.value(QStringLiteral("header"))) == 431, qPrintable(inside.describe()));
    QVERIFY2(EgressProbe::status(parts.value(QStringLiteral("target"))) == 414, qPrintable(inside.describe()));
    QVERIFY2(EgressProbe::status(parts.value(QStringLiteral("afterwards"))) == 200, qPrintable(inside.describe()));
    QVERIFY(!upstream_.arrived(path));
}

void EgressBadInput::slowPeersAreCutOffWhileOthersAreServed_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressBadInput::slowPeersAreCutOffWhileOthersAreServed()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // The proxy gives a request head 10 s and an upstream's answer 60 s
    // (ProxyLimits); these bounds leave room for a loaded machine. Both slow
    // peers run at once, so the row costs the longer of the two.
    constexpr int kSlowClientBound = 30;
    constexpr int kSilentUpstreamBound = 90;
    const int port = upstream_.ports().http;
    const int silent = upstream_.ports().silent;
    const QString url = EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port,
                                            EgressUpstream::uniquePath(QStringLiteral("slowloris")));
    // The silent upstream's request in the background; the slow client, and
    // a normal request 2 s into it, in the foreground.
    const QString script =
        proxyRequest(absoluteRequest(EgressSandbox::loopback(silent), QStringLiteral("/")), kSilentUpstreamBound) +
        QStringLiteral(" > silent.out 2>&1 &\n") +
        probe_->shellCommand({QStringLiteral("slowloris"), QString::number(EgressProbe::kHttpProxyPort), url,
                              QString::number(kSlowClientBound)}) +
        QStringLiteral("\nwait\necho '== silent'\ncat silent.out\n");
    const ProcessResult inside =
        runner->moatShell(sandbox(EgressSandbox::eventsFile(*runner, QStringLiteral("slow")),
                                  {EgressSandbox::loopback(port), EgressSandbox::loopback(silent)}),
                          script, EgressSandbox::patient((kSilentUpstreamBound + 30) * 1000));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    const QString normal = EgressProbe::value(inside.out, QStringLiteral("normal"));
    QVERIFY2(normal.startsWith(QLatin1String("status 200 ")), qPrintable(inside.describe()));
    QVERIFY2(normal.section(QLatin1Char(' '), 3, 3).toInt() < 5000, qPrintable(inside.describe()));
    const QString slow = EgressProbe::value(inside.out, QStringLiteral("slow"));
    QVERIFY2(slow.startsWith(QLatin1String("closed-after ")), qPrintable(inside.describe()));
    const QByteArray upstream = EgressProbe::sections(inside.out).value(QStringLiteral("silent"));
    QVERIFY2(EgressProbe::status(upstream) == 504, qPrintable(inside.describe()));
    qInfo("the proxy cut the slow client off after %s s and gave up on the silent upstream after %s ms",
          qPrintable(slow.section(QLatin1Char(' '), 1, 1)),
          qPrintable(EgressProbe::value(upstream, QStringLiteral("elapsed-ms"))));
}

void EgressBadInput::unreachableUpstreamGets502_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressBadInput::unreachableUpstreamGets502()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int closed = LoopbackPort::pickFree(LoopbackPort::Protocol::Tcp);
    QVERIFY(closed != 0);
    const ProcessResult inside = runner->moatShell(
        sandbox(EgressSandbox::eventsFile(*runner, QStringLiteral("502")), {EgressSandbox::loopback(closed)}),
        proxyRequest(absoluteRequest(EgressSandbox::loopback(closed), QStringLiteral("/")), 20));
    QVERIFY2(EgressProbe::status(inside.out) == 502, qPrintable(inside.describe()));
}

void EgressBadInput::idleConnectionsDoNotStarveOthers_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressBadInput::idleConnectionsDoNotStarveOthers()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().http;
    const QString path = EgressUpstream::uniquePath(QStringLiteral("after-idle"));
    const ProcessResult inside = runner->moatRun(
        sandbox(EgressSandbox::eventsFile(*runner, QStringLiteral("idle")), {EgressSandbox::loopback(port)}),
        probe_->command({QStringLiteral("idle"), QString::number(EgressProbe::kHttpProxyPort), QStringLiteral("2000"),
                         EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port, path)}),
        EgressSandbox::patient(60000));
    QVERIFY2(EgressProbe::value(inside.out, QStringLiteral("opened")).startsWith(QLatin1String("2000")),
             qPrintable(inside.describe()));
    QVERIFY2(inside.succeeded() && EgressProbe::status(inside.out) == 200 && inside.out.contains(upstream_.marker()),
             qPrintable(inside.describe()));
    QVERIFY2(EgressProbe::value(inside.out, QStringLiteral("elapsed-ms")).toInt() < 5000,
             qPrintable(inside.describe()));
    QVERIFY(upstream_.arrived(path));
}

QTEST_GUILESS_MAIN(EgressBadInput)
#include "tst_egress_bad_input.moc"
