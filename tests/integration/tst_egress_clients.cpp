// SPDX-License-Identifier: Apache-2.0
// The egress proxy works for the clients an agent really uses: curl over plain
// HTTP and through a CONNECT tunnel, git, Python's urllib, SOCKS5, several
// requests on one connection, and moat's own API on the proxy port. The
// destinations are tests/tools/egress-upstream.py on the host's 127.0.0.1,
// opened with --allow-host 127.0.0.1:PORT (loopback is reached only when its
// address and port are allowed exactly); every request that goes through is
// recorded as net.allow. Without the flag, the same request is refused.
//
// NO_PROXY inside is "localhost,127.0.0.1" so that the agent reaches moat's
// API on 127.0.0.1:3128 directly. The test upstreams live on those names too,
// which no real destination does, so the clients here run without NO_PROXY
// (env -u): otherwise they would skip the proxy and fail to connect.

#include <QFileInfo>
#include <QJsonDocument>
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
#include "testcertificates.h"

namespace {

const QString kCurl = QStringLiteral("/usr/bin/curl");
const QString kGit = QStringLiteral("/usr/bin/git");
const QString kPython = QStringLiteral("/usr/bin/python3");

}  // namespace

class EgressClients : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void proxyEnvironmentNamesTheProxy_data();
    void proxyEnvironmentNamesTheProxy();
    void curlHttpGoesThroughTheProxy_data();
    void curlHttpGoesThroughTheProxy();
    void curlHttpsTunnelsThroughConnect_data();
    void curlHttpsTunnelsThroughConnect();
    void gitClonesThroughTheProxy_data();
    void gitClonesThroughTheProxy();
    void pythonUrllibUsesTheProxy_data();
    void pythonUrllibUsesTheProxy();
    void socksClientsGoThroughTheProxy_data();
    void socksClientsGoThroughTheProxy();
    void keepAliveCarriesSeveralRequests_data();
    void keepAliveCarriesSeveralRequests();
    void largeResponsesArriveWhole_data();
    void largeResponsesArriveWhole();
    void sessionApiAnswersInside_data();
    void sessionApiAnswersInside();
    void netNoneHasNoProxy_data();
    void netNoneHasNoProxy();

private:
    QStringList sandbox(const QString& events, const QStringList& allowed) const
    {
        return sandbox_->options(events, allowed);
    }

    IntegrationFixture fixture_;
    TestCertificates certificates_;
    EgressUpstream upstream_;
    std::unique_ptr<EgressSandbox> sandbox_;
};

void EgressClients::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    for (const QString& program : {kCurl, kGit, TestCertificates::openssl()}) {
        if (!QFileInfo(program).isExecutable()) {
            QSKIP(qPrintable(program + QStringLiteral(" is not installed (scripts/install-deps.sh)")));
        }
    }
    QVERIFY2(certificates_.create(&error), qPrintable(error));
    QVERIFY2(upstream_.start(fixture_.install(), certificates_, &error), qPrintable(error));
    sandbox_ = std::make_unique<EgressSandbox>(fixture_.install(), certificates_);
}

void EgressClients::init()
{
    fixture_.renewWorkspaces();
}

void EgressClients::cleanupTestCase()
{
    fixture_.tearDown();
}

void EgressClients::proxyEnvironmentNamesTheProxy_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressClients::proxyEnvironmentNamesTheProxy()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult inside = runner->moatRun({}, {QStringLiteral("/usr/bin/env")});
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QStringList lines = inside.stdOut().split(QLatin1Char('\n'));
    for (const char* expected :
         {"HTTP_PROXY=http://127.0.0.1:3128", "HTTPS_PROXY=http://127.0.0.1:3128", "http_proxy=http://127.0.0.1:3128",
          "https_proxy=http://127.0.0.1:3128", "ALL_PROXY=socks5h://127.0.0.1:1080",
          "all_proxy=socks5h://127.0.0.1:1080", "NO_PROXY=localhost,127.0.0.1", "no_proxy=localhost,127.0.0.1",
          "MOAT_API=http://127.0.0.1:3128"}) {
        QVERIFY2(lines.contains(QLatin1String(expected)),
                 qPrintable(QStringLiteral("%1 missing: ").arg(QLatin1String(expected)) + inside.describe()));
    }

    // Without a proxy there is nothing to point at: --net none has no
    // listener, --net open goes out directly.
    for (const QString& net : {QStringLiteral("none"), QStringLiteral("open")}) {
        const ProcessResult other = runner->moatRun({QStringLiteral("--net"), net}, {QStringLiteral("/usr/bin/env")});
        QVERIFY2(other.succeeded(), qPrintable(other.describe()));
        lines = other.stdOut().split(QLatin1Char('\n'));
        for (const QString& line : lines) {
            QVERIFY2(!line.contains(QLatin1String("PROXY=")) && !line.contains(QLatin1String("proxy=")) &&
                         !line.startsWith(QLatin1String("MOAT_API=")),
                     qPrintable(net + QStringLiteral(": ") + other.describe()));
        }
    }
}

void EgressClients::curlHttpGoesThroughTheProxy_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressClients::curlHttpGoesThroughTheProxy()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().http;
    const QString path = EgressUpstream::uniquePath(QStringLiteral("curl-http"));
    const QStringList curl = EgressSandbox::throughProxy(
        {kCurl, QStringLiteral("-sS"), QStringLiteral("-i"), QStringLiteral("-m"), QStringLiteral("10"),
         EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port, path)});

    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("allowed"));
    const ProcessResult inside = runner->moatRun(sandbox(events, {EgressSandbox::loopback(port)}), curl);
    QVERIFY2(inside.succeeded() && inside.out.contains(upstream_.marker()), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("path=" + path.toUtf8()), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("host=127.0.0.1:" + QByteArray::number(port)), qPrintable(inside.describe()));
    const EventLog log = EventLog::read(events);
    QVERIFY2(log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    const QList<QJsonObject> allowed = NetEvents(log).to(QStringLiteral("net.allow"), port, QStringLiteral("http"));
    QVERIFY2(allowed.size() == 1, qPrintable(NetEvents(log).describe()));
    QCOMPARE(allowed.first().value(QStringLiteral("host")).toString(), QStringLiteral("127.0.0.1"));
    // The address the proxy dialled, with or without its port.
    QVERIFY2(allowed.first().value(QStringLiteral("address")).toString().startsWith(QLatin1String("127.0.0.1")),
             qPrintable(NetEvents(log).describe()));
    QVERIFY2(!allowed.first().value(QStringLiteral("rule")).toString().isEmpty(),
             qPrintable(NetEvents(log).describe()));

    // The flag made the difference: without it the proxy answers 403 and
    // names the flag, and the upstream never sees the request.
    const QString refusedPath = EgressUpstream::uniquePath(QStringLiteral("curl-http-refused"));
    const QString refusedEvents = EgressSandbox::eventsFile(*runner, QStringLiteral("refused"));
    const ProcessResult refused = runner->moatRun(
        sandbox(refusedEvents, {}),
        EgressSandbox::throughProxy(
            {kCurl, QStringLiteral("-sS"), QStringLiteral("-i"), QStringLiteral("-m"), QStringLiteral("10"),
             EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port, refusedPath)}));
    QVERIFY2(refused.out.startsWith("HTTP/1.1 403"), qPrintable(refused.describe()));
    QVERIFY2(
        refused.out.contains("moat: ") && refused.out.contains("--allow-host 127.0.0.1:" + QByteArray::number(port)),
        qPrintable(refused.describe()));
    QVERIFY(!upstream_.arrived(refusedPath));
    QVERIFY2(!NetEvents(EventLog::read(refusedEvents)).to(QStringLiteral("net.deny"), port).isEmpty(),
             qPrintable(NetEvents(EventLog::read(refusedEvents)).describe()));
}

void EgressClients::curlHttpsTunnelsThroughConnect_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressClients::curlHttpsTunnelsThroughConnect()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().https;
    const QString path = EgressUpstream::uniquePath(QStringLiteral("curl-https"));
    const int handshakes = upstream_.count("tls sni=localhost");
    // The certificate names localhost; the proxy resolves localhost to the
    // loopback, which needs its address allowed as well.
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("https"));
    const ProcessResult inside =
        runner->moatRun(sandbox(events, {EgressSandbox::localhost(port), EgressSandbox::loopback(port)}),
                        EgressSandbox::throughProxy(
                            {kCurl, QStringLiteral("-sS"), QStringLiteral("-m"), QStringLiteral("10"),
                             QStringLiteral("--cacert"), certificates_.caFile(),
                             EgressUpstream::url(QStringLiteral("https"), QStringLiteral("localhost"), port, path)}));
    QVERIFY2(inside.succeeded() && inside.out.contains(upstream_.marker()), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("server=https") && inside.out.contains("path=" + path.toUtf8()),
             qPrintable(inside.describe()));
    QVERIFY2(upstream_.count("tls sni=localhost") > handshakes, upstream_.log().constData());
    const NetEvents recorded(EventLog::read(events));
    const QList<QJsonObject> allowed = recorded.to(QStringLiteral("net.allow"), port, QStringLiteral("connect"));
    QVERIFY2(allowed.size() == 1, qPrintable(recorded.describe()));
    QCOMPARE(allowed.first().value(QStringLiteral("host")).toString(), QStringLiteral("localhost"));
}

void EgressClients::gitClonesThroughTheProxy_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QString>("scheme");
    for (const char* account : {"root", "user"}) {
        for (const char* scheme : {"http", "https"}) {
            QTest::addRow("%s: %s", account, scheme) << QString::fromLatin1(account) << QString::fromLatin1(scheme);
        }
    }
}

void EgressClients::gitClonesThroughTheProxy()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, scheme);
    const bool tls = scheme == QLatin1String("https");
    const int port = tls ? upstream_.ports().https : upstream_.ports().http;
    const QString host = tls ? QStringLiteral("localhost") : QStringLiteral("127.0.0.1");
    const QStringList allowed = tls ? QStringList{EgressSandbox::localhost(port), EgressSandbox::loopback(port)}
                                    : QStringList{EgressSandbox::loopback(port)};
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("git"));
    const int fetches = upstream_.count(EgressUpstream::repositoryPath().toUtf8() + "/info/refs");
    const QString script = QStringLiteral("export GIT_SSL_CAINFO=%1 && git clone -q %2 clone && cat clone/README.txt")
                               .arg(EgressProbe::shellQuote(certificates_.caFile()),
                                    EgressUpstream::url(scheme, host, port, EgressUpstream::repositoryPath()));
    const ProcessResult inside =
        runner->moatRun(sandbox(events, allowed),
                        EgressSandbox::throughProxy({QStringLiteral("/bin/sh"), QStringLiteral("-c"), script}),
                        EgressSandbox::patient(60000));
    QVERIFY2(inside.succeeded() && inside.out.contains(upstream_.repositoryContent()), qPrintable(inside.describe()));
    QVERIFY2(upstream_.count(EgressUpstream::repositoryPath().toUtf8() + "/info/refs") > fetches,
             upstream_.log().constData());
    const NetEvents recorded(EventLog::read(events));
    QVERIFY2(!recorded.to(QStringLiteral("net.allow"), port, tls ? QStringLiteral("connect") : QStringLiteral("http"))
                  .isEmpty(),
             qPrintable(recorded.describe()));
}

void EgressClients::pythonUrllibUsesTheProxy_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressClients::pythonUrllibUsesTheProxy()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int http = upstream_.ports().http;
    const int https = upstream_.ports().https;
    const QString plainPath = EgressUpstream::uniquePath(QStringLiteral("urllib-http"));
    const QString tlsPath = EgressUpstream::uniquePath(QStringLiteral("urllib-https"));
    // urllib takes its proxies from the environment, as most libraries do.
    const QString program = QStringLiteral(
        "import ssl, sys, urllib.request\n"
        "print(urllib.request.getproxies())\n"
        "for url in sys.argv[2:]:\n"
        "    context = ssl.create_default_context(cafile=sys.argv[1])\n"
        "    with urllib.request.urlopen(url, timeout=10, context=context) as answer:\n"
        "        sys.stdout.write(answer.read().decode())\n");
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("urllib"));
    const ProcessResult inside = runner->moatRun(
        sandbox(events,
                {EgressSandbox::loopback(http), EgressSandbox::localhost(https), EgressSandbox::loopback(https)}),
        EgressSandbox::throughProxy(
            {kPython, QStringLiteral("-c"), program, certificates_.caFile(),
             EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), http, plainPath),
             EgressUpstream::url(QStringLiteral("https"), QStringLiteral("localhost"), https, tlsPath)}));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("path=" + plainPath.toUtf8()) && inside.out.contains("path=" + tlsPath.toUtf8()),
             qPrintable(inside.describe()));
    const NetEvents recorded(EventLog::read(events));
    QVERIFY2(recorded.to(QStringLiteral("net.allow"), http, QStringLiteral("http")).size() == 1,
             qPrintable(recorded.describe()));
    QVERIFY2(recorded.to(QStringLiteral("net.allow"), https, QStringLiteral("connect")).size() == 1,
             qPrintable(recorded.describe()));
}

void EgressClients::socksClientsGoThroughTheProxy_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressClients::socksClientsGoThroughTheProxy()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().http;
    const QString byName = EgressUpstream::uniquePath(QStringLiteral("socks-name"));
    const QString byEnvironment = EgressUpstream::uniquePath(QStringLiteral("socks-all-proxy"));
    const QString byProbe = EgressUpstream::uniquePath(QStringLiteral("socks-probe"));
    const EgressProbe probe(fixture_.install());
    // curl --socks5-hostname hands the name to the proxy; with only ALL_PROXY
    // (socks5h://) left, curl takes that; the probe speaks SOCKS5 itself.
    const QString script =
        probe.attempt(QStringLiteral("name"),
                      EgressProbe::shellLine(
                          {kCurl, QStringLiteral("-sS"), QStringLiteral("-m"), QStringLiteral("10"),
                           QStringLiteral("--socks5-hostname"), QStringLiteral("127.0.0.1:1080"),
                           EgressUpstream::url(QStringLiteral("http"), QStringLiteral("localhost"), port, byName)})) +
        probe.attempt(
            QStringLiteral("all_proxy"),
            QStringLiteral("unset HTTP_PROXY http_proxy; ") +
                EgressProbe::shellLine(
                    {kCurl, QStringLiteral("-sS"), QStringLiteral("-m"), QStringLiteral("10"),
                     EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port, byEnvironment)})) +
        probe.attempt(QStringLiteral("probe"),
                      probe.shellCommand({QStringLiteral("socks5"), QString::number(EgressProbe::kSocksPort),
                                          QStringLiteral("127.0.0.1"), QString::number(port), byProbe}));
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("socks"));
    const ProcessResult inside =
        runner->moatRun(sandbox(events, {EgressSandbox::localhost(port), EgressSandbox::loopback(port)}),
                        EgressSandbox::throughProxy({QStringLiteral("/bin/sh"), QStringLiteral("-c"), script}));
    const QMap<QString, QByteArray> parts = EgressProbe::sections(inside.out);
    QVERIFY2(parts.value(QStringLiteral("name")).contains("path=" + byName.toUtf8()), qPrintable(inside.describe()));
    QVERIFY2(parts.value(QStringLiteral("all_proxy")).contains("path=" + byEnvironment.toUtf8()),
             qPrintable(inside.describe()));
    QVERIFY2(parts.value(QStringLiteral("probe")).contains("reply 0x00") &&
                 parts.value(QStringLiteral("probe")).contains("path=" + byProbe.toUtf8()),
             qPrintable(inside.describe()));
    const NetEvents recorded(EventLog::read(events));
    const QList<QJsonObject> allowed = recorded.to(QStringLiteral("net.allow"), port, QStringLiteral("socks5"));
    QVERIFY2(allowed.size() == 3, qPrintable(recorded.describe()));
    QCOMPARE(allowed.first().value(QStringLiteral("host")).toString(), QStringLiteral("localhost"));
}

void EgressClients::keepAliveCarriesSeveralRequests_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressClients::keepAliveCarriesSeveralRequests()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().http;
    const QString first = EgressUpstream::uniquePath(QStringLiteral("keep-alive-1"));
    const QString second = EgressUpstream::uniquePath(QStringLiteral("keep-alive-2"));
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("keep-alive"));
    const ProcessResult inside = runner->moatRun(
        sandbox(events, {EgressSandbox::loopback(port)}),
        EgressSandbox::throughProxy(
            {kCurl, QStringLiteral("-sS"), QStringLiteral("-v"), QStringLiteral("-m"), QStringLiteral("10"),
             EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port, first),
             EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port, second)}));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("path=" + first.toUtf8()) && inside.out.contains("path=" + second.toUtf8()),
             qPrintable(inside.describe()));
    // curl kept its one connection to the proxy for the second request.
    QVERIFY2(inside.err.contains("Re-using existing connection"), qPrintable(inside.describe()));
    QVERIFY2(inside.err.count("Connected to 127.0.0.1") == 1, qPrintable(inside.describe()));
    const NetEvents recorded(EventLog::read(events));
    QVERIFY2(recorded.to(QStringLiteral("net.allow"), port, QStringLiteral("http")).size() == 2,
             qPrintable(recorded.describe()));
}

void EgressClients::largeResponsesArriveWhole_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressClients::largeResponsesArriveWhole()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int http = upstream_.ports().http;
    const int https = upstream_.ports().https;
    constexpr int kBytes = 16 * 1024 * 1024;
    const QString path = QStringLiteral("/bytes/%1").arg(kBytes);
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("large"));
    const ProcessResult inside = runner->moatRun(
        sandbox(events,
                {EgressSandbox::loopback(http), EgressSandbox::localhost(https), EgressSandbox::loopback(https)}),
        EgressSandbox::throughProxy(
            {kCurl, QStringLiteral("-sS"), QStringLiteral("-m"), QStringLiteral("30"), QStringLiteral("--cacert"),
             certificates_.caFile(), QStringLiteral("-o"), QStringLiteral("/dev/null"), QStringLiteral("-o"),
             QStringLiteral("/dev/null"), QStringLiteral("-w"), QStringLiteral("%{size_download}\\n"),
             EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), http, path),
             EgressUpstream::url(QStringLiteral("https"), QStringLiteral("localhost"), https, path)}),
        EgressSandbox::patient(60000));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QCOMPARE(inside.stdOut(), QStringLiteral("%1\n%1\n").arg(kBytes));
}

void EgressClients::sessionApiAnswersInside_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressClients::sessionApiAnswersInside()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString name = QStringLiteral("egress-api-%1").arg(QRandomGenerator::system()->bounded(1000000));
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("api"));
    // NO_PROXY keeps 127.0.0.1 direct, so curl asks the proxy's own API.
    const ProcessResult inside = runner->moatShell(sandbox(events, {}) + QStringList{QStringLiteral("--name"), name},
                                                   QStringLiteral("curl -sS -f -m 10 \"$MOAT_API/v1/session\""));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(inside.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError && document.isObject(), qPrintable(inside.describe()));
    const QJsonObject session = document.object();
    for (const char* key : {"id", "name", "flags", "expires"}) {
        QVERIFY2(session.contains(QLatin1String(key)),
                 qPrintable(QLatin1String(key) + QStringLiteral(" missing: ") + inside.describe()));
    }
    QCOMPARE(session.value(QStringLiteral("name")).toString(), name);
    const EventLog log = EventLog::read(events);
    const QString id = log.first(QStringLiteral("session.start")).value(QStringLiteral("session")).toString();
    QVERIFY2(!id.isEmpty(), qPrintable(log.path()));
    QCOMPARE(session.value(QStringLiteral("id")).toString(), id);
}

void EgressClients::netNoneHasNoProxy_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressClients::netNoneHasNoProxy()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const EgressProbe probe(fixture_.install());
    const QString script =
        probe.attempt(QStringLiteral("http"), probe.shellCommand({QStringLiteral("tcp"), QStringLiteral("127.0.0.1"),
                                                                  QString::number(EgressProbe::kHttpProxyPort)})) +
        probe.attempt(QStringLiteral("socks"), probe.shellCommand({QStringLiteral("tcp"), QStringLiteral("127.0.0.1"),
                                                                   QString::number(EgressProbe::kSocksPort)}));
    // --local-tcp lets connect() reach the sandbox's loopback at all, so a
    // refusal means nobody listens there.
    const QStringList tools{QStringLiteral("--ro"), fixture_.install().dir(), QStringLiteral("--local-tcp")};

    const ProcessResult proxy = runner->moatShell(tools, script);
    QMap<QString, QByteArray> parts = EgressProbe::sections(proxy.out);
    QVERIFY2(parts.value(QStringLiteral("http")).startsWith("connected"), qPrintable(proxy.describe()));
    QVERIFY2(parts.value(QStringLiteral("socks")).startsWith("connected"), qPrintable(proxy.describe()));

    const ProcessResult none =
        runner->moatShell(tools + QStringList{QStringLiteral("--net"), QStringLiteral("none")}, script);
    parts = EgressProbe::sections(none.out);
    QVERIFY2(parts.value(QStringLiteral("http")).startsWith("failed ECONNREFUSED"), qPrintable(none.describe()));
    QVERIFY2(parts.value(QStringLiteral("socks")).startsWith("failed ECONNREFUSED"), qPrintable(none.describe()));
}

QTEST_GUILESS_MAIN(EgressClients)
#include "tst_egress_clients.moc"
