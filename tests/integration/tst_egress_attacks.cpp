// SPDX-License-Identifier: Apache-2.0
// What the egress proxy refuses. Each trick is first shown to work outside,
// on the host, as the same user against the same test upstream
// (tests/tools/egress-upstream.py on the host's loopback), then to be refused
// inside with a reason that names the --allow-host flag, a net.deny event,
// and nothing arriving at the upstream. Where the host itself cannot reach an
// address (no route, no resolver), the row says so and shows the refusal only.
//
// What a hostile agent sends instead of requests (malformed, oversized,
// slow, idle) is in tst_egress_bad_input.cpp.
//
// NO_PROXY inside covers 127.0.0.1 and localhost (for moat's API), where the
// test upstreams also are; clients that should use the proxy run without it.

#include <QFileInfo>
#include <QJsonObject>
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

namespace {

const QString kCurl = QStringLiteral("/usr/bin/curl");
const QString kGetent = QStringLiteral("/usr/bin/getent");

// What the host can show for a destination before the sandbox refuses it.
enum class OutsideProof {
    Upstream,  // the test upstream answers there
    Route,     // nothing listens there, but the host routes to it
};

// The port a row aims at.
enum class TargetPort {
    Alt,      // the upstream's second HTTP port (not allowed)
    Default,  // 80
};

}  // namespace

Q_DECLARE_METATYPE(OutsideProof)
Q_DECLARE_METATYPE(TargetPort)

class EgressAttacks : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void otherDestinationsAreRefused_data();
    void otherDestinationsAreRefused();
    void dnsOverHttpsToAnAddressIsRefused_data();
    void dnsOverHttpsToAnAddressIsRefused();
    void hostHeaderCannotChangeTheDestination_data();
    void hostHeaderCannotChangeTheDestination();
    void sniMustNameTheConnectHost_data();
    void sniMustNameTheConnectHost();
    void directConnectionsFailFast_data();
    void directConnectionsFailFast();
    void udpGoesNowhere_data();
    void udpGoesNowhere();
    void namesDoNotResolveInside_data();
    void namesDoNotResolveInside();
    void rootInsideCannotRouteAroundTheProxy_data();
    void rootInsideCannotRouteAroundTheProxy();

private:
    QStringList sandbox(const QString& events, const QStringList& allowed) const
    {
        return sandbox_->options(events, allowed);
    }
    QString proxyRequest(const QString& request, int timeoutSeconds = 30) const
    {
        return probe_->httpProxyRequest(request, timeoutSeconds);
    }
    static QString absoluteRequest(const QString& authority, const QString& path, const QString& hostHeader = {})
    {
        return EgressProbe::absoluteRequest(authority, path, hostHeader);
    }
    // Whether the host routes to `address` (ip route get); the reason when not.
    bool hostRoutes(const AccountRunner& runner, const QString& address, QString* why) const;

    IntegrationFixture fixture_;
    TestCertificates certificates_;
    EgressUpstream upstream_;
    std::unique_ptr<EgressSandbox> sandbox_;
    std::unique_ptr<EgressProbe> probe_;
};

void EgressAttacks::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    for (const QString& program : {kCurl, QStringLiteral("/usr/bin/git"), TestCertificates::openssl()}) {
        if (!QFileInfo(program).isExecutable()) {
            QSKIP(qPrintable(program + QStringLiteral(" is not installed (scripts/install-deps.sh)")));
        }
    }
    QVERIFY2(certificates_.create(&error), qPrintable(error));
    QVERIFY2(upstream_.start(fixture_.install(), certificates_, &error), qPrintable(error));
    sandbox_ = std::make_unique<EgressSandbox>(fixture_.install(), certificates_);
    probe_ = std::make_unique<EgressProbe>(fixture_.install());
}

void EgressAttacks::init()
{
    fixture_.renewWorkspaces();
}

void EgressAttacks::cleanupTestCase()
{
    fixture_.tearDown();
}

bool EgressAttacks::hostRoutes(const AccountRunner& runner, const QString& address, QString* why) const
{
    const QString ip = QStringLiteral("/usr/sbin/ip");
    if (!QFileInfo(ip).isExecutable()) {
        *why = QStringLiteral("no %1 to ask the host's routing table").arg(ip);
        return false;
    }
    const ProcessResult route = runner.host({ip, QStringLiteral("route"), QStringLiteral("get"), address});
    if (!route.succeeded()) {
        *why = QStringLiteral("the host has no route to %1 (%2)").arg(address, route.stdErr().trimmed());
        return false;
    }
    return true;
}

void EgressAttacks::otherDestinationsAreRefused_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QString>("host");
    QTest::addColumn<TargetPort>("target");
    QTest::addColumn<OutsideProof>("outside");
    struct Row {
        const char* label;
        const char* host;
        TargetPort target;
        OutsideProof outside;
    };
    // Allowed in every row: 127.0.0.1 and localhost at the upstream's http
    // port. The rows aim elsewhere: another port of the same address, the
    // same address spelt otherwise, and addresses that are not public.
    const Row rows[] = {
        {"another port of an allowed address", "127.0.0.1", TargetPort::Alt, OutsideProof::Upstream},
        {"127.1", "127.1", TargetPort::Alt, OutsideProof::Upstream},
        {"2130706433", "2130706433", TargetPort::Alt, OutsideProof::Upstream},
        {"0x7f000001", "0x7f000001", TargetPort::Alt, OutsideProof::Upstream},
        {"0177.0.0.1", "0177.0.0.1", TargetPort::Alt, OutsideProof::Upstream},
        {"[::ffff:127.0.0.1]", "[::ffff:127.0.0.1]", TargetPort::Alt, OutsideProof::Upstream},
        {"[::1]", "[::1]", TargetPort::Alt, OutsideProof::Upstream},
        {"localhost named, its address not", "localhost", TargetPort::Alt, OutsideProof::Upstream},
        {"metadata 169.254.169.254", "169.254.169.254", TargetPort::Default, OutsideProof::Route},
        {"private 10.0.0.1", "10.0.0.1", TargetPort::Default, OutsideProof::Route},
        {"private 192.168.1.1", "192.168.1.1", TargetPort::Default, OutsideProof::Route},
        {"CGNAT 100.64.0.1", "100.64.0.1", TargetPort::Default, OutsideProof::Route},
        {"unique local [fd00::1]", "[fd00::1]", TargetPort::Default, OutsideProof::Route},
    };
    for (const char* account : {"root", "user"}) {
        for (const Row& row : rows) {
            QTest::addRow("%s: %s", account, row.label)
                << QString::fromLatin1(account) << QString::fromLatin1(row.host) << row.target << row.outside;
        }
    }
}

void EgressAttacks::otherDestinationsAreRefused()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, host);
    QFETCH(TargetPort, target);
    QFETCH(OutsideProof, outside);
    const bool v6 = host.startsWith(QLatin1Char('['));
    const int port = target == TargetPort::Alt ? upstream_.ports().alt : 80;
    const QString authority = QStringLiteral("%1:%2").arg(host).arg(port);

    if (outside == OutsideProof::Upstream) {
        if (v6 && upstream_.ports().alt6 == 0 && host == QLatin1String("[::1]")) {
            qInfo("the host has no IPv6 loopback, so nothing answers on [::1] outside; showing the refusal only");
        } else {
            const ProcessResult reached =
                runner->host(probe_->command({QStringLiteral("direct"), host, QString::number(port),
                                              EgressUpstream::uniquePath(QStringLiteral("outside"))}));
            QVERIFY2(reached.succeeded() && reached.out.contains(upstream_.marker()), qPrintable(reached.describe()));
        }
    } else {
        QString why;
        if (!hostRoutes(*runner, v6 ? host.mid(1, host.size() - 2) : host, &why)) {
            qInfo("%s; showing the refusal only", qPrintable(why));
        }
    }

    const int allowedPort = upstream_.ports().http;
    QStringList allowed{EgressSandbox::loopback(allowedPort), EgressSandbox::localhost(allowedPort)};
    if (host == QLatin1String("localhost")) {
        // The name alone: the proxy resolves it and finds the loopback.
        allowed.append(EgressSandbox::localhost(port));
    }
    const QString control = EgressUpstream::uniquePath(QStringLiteral("control"));
    const QString overHttp = EgressUpstream::uniquePath(QStringLiteral("refused-http"));
    const QString overConnect = EgressUpstream::uniquePath(QStringLiteral("refused-connect"));
    const QString overSocks = EgressUpstream::uniquePath(QStringLiteral("refused-socks"));
    const QString script =
        probe_->attempt(QStringLiteral("control"),
                        proxyRequest(absoluteRequest(EgressSandbox::loopback(allowedPort), control))) +
        probe_->attempt(QStringLiteral("http"), proxyRequest(absoluteRequest(authority, overHttp))) +
        probe_->attempt(QStringLiteral("connect"),
                        probe_->shellCommand({QStringLiteral("connect"), QString::number(EgressProbe::kHttpProxyPort),
                                              authority, QStringLiteral("--path"), overConnect})) +
        probe_->attempt(QStringLiteral("socks5"),
                        probe_->shellCommand({QStringLiteral("socks5"), QString::number(EgressProbe::kSocksPort), host,
                                              QString::number(port), overSocks}));
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("refused"));
    const ProcessResult inside = runner->moatShell(sandbox(events, allowed), script, EgressSandbox::patient(60000));
    const QMap<QString, QByteArray> parts = EgressProbe::sections(inside.out);

    // The proxy works: the allowed destination answers.
    QVERIFY2(parts.value(QStringLiteral("control")).contains(upstream_.marker()), qPrintable(inside.describe()));
    // Refused over every protocol, with the flag that would allow it.
    const QByteArray http = parts.value(QStringLiteral("http"));
    QVERIFY2(EgressProbe::status(http) == 403 && http.contains("moat: ") && http.contains("--allow-host"),
             qPrintable(inside.describe()));
    const QByteArray connect = parts.value(QStringLiteral("connect"));
    QVERIFY2(connect.contains("connect-status 403") && connect.contains("--allow-host"), qPrintable(inside.describe()));
    QVERIFY2(parts.value(QStringLiteral("socks5")).contains("reply 0x02"), qPrintable(inside.describe()));
    for (const QString& path : {overHttp, overConnect, overSocks}) {
        QVERIFY2(!upstream_.arrived(path), qPrintable(path + QStringLiteral(" reached the upstream")));
    }

    const EventLog log = EventLog::read(events);
    QVERIFY2(log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    const NetEvents recorded(log);
    QVERIFY2(recorded.to(QStringLiteral("net.allow"), port).isEmpty(), qPrintable(recorded.describe()));
    for (const QString& protocol : {QStringLiteral("http"), QStringLiteral("connect"), QStringLiteral("socks5")}) {
        const QList<QJsonObject> denied = recorded.to(QStringLiteral("net.deny"), port, protocol);
        QVERIFY2(!denied.isEmpty(), qPrintable(protocol + QStringLiteral(" not recorded; ") + recorded.describe()));
        QVERIFY2(denied.first().value(QStringLiteral("reason")).toString().contains(QLatin1String("--allow-host")),
                 qPrintable(recorded.describe()));
    }
}

void EgressAttacks::dnsOverHttpsToAnAddressIsRefused_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressAttacks::dnsOverHttpsToAnAddressIsRefused()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // A resolver of its own would let the agent learn (and leak through)
    // names the DNS stub never answers.
    const ProcessResult outside =
        runner->host(probe_->command({QStringLiteral("tcp"), QStringLiteral("1.1.1.1"), QStringLiteral("443")}));
    if (!outside.succeeded()) {
        qInfo("the host cannot reach 1.1.1.1:443 itself (%s); showing the refusal only",
              qPrintable(outside.stdOut().trimmed()));
    }

    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("doh"));
    const ProcessResult inside =
        runner->moatRun(sandbox(events, {QStringLiteral("example.com")}),
                        {kCurl, QStringLiteral("-sS"), QStringLiteral("-m"), QStringLiteral("10"), QStringLiteral("-H"),
                         QStringLiteral("accept: application/dns-message"),
                         QStringLiteral("https://1.1.1.1/dns-query?dns=AAABAAABAAAAAAAAB2V4YW1wbGUDY29tAAABAAE")});
    QVERIFY2(inside.exitCode != 0 && inside.err.contains("403"), qPrintable(inside.describe()));
    const NetEvents recorded(EventLog::read(events));
    QVERIFY2(recorded.data(QStringLiteral("net.allow")).isEmpty(), qPrintable(recorded.describe()));
    const QList<QJsonObject> denied = recorded.to(QStringLiteral("net.deny"), 443, QStringLiteral("connect"));
    QVERIFY2(denied.size() == 1, qPrintable(recorded.describe()));
    QCOMPARE(denied.first().value(QStringLiteral("host")).toString(), QStringLiteral("1.1.1.1"));
    QVERIFY2(
        denied.first().value(QStringLiteral("reason")).toString().contains(QLatin1String("--allow-host 1.1.1.1:443")),
        qPrintable(recorded.describe()));
}

void EgressAttacks::hostHeaderCannotChangeTheDestination_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressAttacks::hostHeaderCannotChangeTheDestination()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().http;
    const QString url = EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port);
    // Outside, a server that hosts several sites picks one by the Host
    // header, whatever address the client connected to (domain fronting).
    const QString outsidePath = EgressUpstream::uniquePath(QStringLiteral("host-header-outside"));
    const ProcessResult outside =
        runner->host({kCurl, QStringLiteral("-sS"), QStringLiteral("-m"), QStringLiteral("5"), QStringLiteral("-H"),
                      QStringLiteral("Host: evil.example"), url + outsidePath});
    QVERIFY2(outside.succeeded() && outside.out.contains("host=evil.example"), qPrintable(outside.describe()));

    const QString toName = EgressUpstream::uniquePath(QStringLiteral("host-header-name"));
    const QString toPort = EgressUpstream::uniquePath(QStringLiteral("host-header-port"));
    const auto curl = [&](const QString& hostHeader, const QString& path) {
        return EgressProbe::shellLine({kCurl, QStringLiteral("-sS"), QStringLiteral("-i"), QStringLiteral("-m"),
                                       QStringLiteral("10"), QStringLiteral("-H"),
                                       QStringLiteral("Host: ") + hostHeader, url + path});
    };
    const QString script =
        QStringLiteral("unset NO_PROXY no_proxy\n") +
        probe_->attempt(QStringLiteral("name"), curl(QStringLiteral("evil.example"), toName)) +
        probe_->attempt(QStringLiteral("port"), curl(EgressSandbox::loopback(upstream_.ports().alt), toPort));
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("host-header"));
    const ProcessResult inside = runner->moatShell(sandbox(events, {EgressSandbox::loopback(port)}), script);
    const QMap<QString, QByteArray> parts = EgressProbe::sections(inside.out);
    for (const QString& part : {QStringLiteral("name"), QStringLiteral("port")}) {
        const QByteArray answer = parts.value(part);
        QVERIFY2((answer.startsWith("HTTP/1.1 400") || answer.startsWith("HTTP/1.1 403")) &&
                     answer.contains("moat: ") && !answer.contains(upstream_.marker()),
                 qPrintable(part + QStringLiteral(": ") + inside.describe()));
    }
    QVERIFY(!upstream_.arrived(toName));
    QVERIFY(!upstream_.arrived(toPort));
    const NetEvents recorded(EventLog::read(events));
    QVERIFY2(recorded.data(QStringLiteral("net.allow")).isEmpty(), qPrintable(recorded.describe()));
    QVERIFY2(recorded.data(QStringLiteral("net.deny")).size() >= 2, qPrintable(recorded.describe()));
}

void EgressAttacks::sniMustNameTheConnectHost_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressAttacks::sniMustNameTheConnectHost()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().https;
    const QByteArray evil = "tls sni=evil.example";
    // Outside, a TLS server (or a CDN in front of many) serves whichever name
    // the ClientHello asks for, whatever address the client connected to.
    const int before = upstream_.count(evil);
    const ProcessResult outside =
        runner->host(probe_->command({QStringLiteral("tls"), QStringLiteral("127.0.0.1"), QString::number(port),
                                      QStringLiteral("--sni"), QStringLiteral("evil.example"), QStringLiteral("--path"),
                                      EgressUpstream::uniquePath(QStringLiteral("sni-outside"))}));
    QVERIFY2(outside.succeeded() && outside.out.contains("tls established") && outside.out.contains(upstream_.marker()),
             qPrintable(outside.describe()));
    QCOMPARE(upstream_.count(evil), before + 1);

    const QString control = EgressUpstream::uniquePath(QStringLiteral("sni-control"));
    const QString viaAddress = EgressUpstream::uniquePath(QStringLiteral("sni-address"));
    const QString viaName = EgressUpstream::uniquePath(QStringLiteral("sni-name"));
    const auto tunnel = [&](const QString& authority, const QString& sni, const QString& path) {
        return probe_->shellCommand({QStringLiteral("connect"), QString::number(EgressProbe::kHttpProxyPort), authority,
                                     QStringLiteral("--sni"), sni, QStringLiteral("--path"), path});
    };
    const QString script =
        probe_->attempt(QStringLiteral("control"),
                        tunnel(EgressSandbox::localhost(port), QStringLiteral("localhost"), control)) +
        probe_->attempt(QStringLiteral("address"),
                        tunnel(EgressSandbox::loopback(port), QStringLiteral("evil.example"), viaAddress)) +
        probe_->attempt(QStringLiteral("name"),
                        tunnel(EgressSandbox::localhost(port), QStringLiteral("evil.example"), viaName));
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("sni"));
    const ProcessResult inside =
        runner->moatShell(sandbox(events, {EgressSandbox::localhost(port), EgressSandbox::loopback(port)}), script,
                          EgressSandbox::patient(60000));
    const QMap<QString, QByteArray> parts = EgressProbe::sections(inside.out);
    QVERIFY2(parts.value(QStringLiteral("control")).contains("tls established") &&
                 parts.value(QStringLiteral("control")).contains(upstream_.marker()),
             qPrintable(inside.describe()));
    for (const QString& part : {QStringLiteral("address"), QStringLiteral("name")}) {
        const QByteArray answer = parts.value(part);
        QVERIFY2(!answer.contains("tls established") && !answer.contains(upstream_.marker()),
                 qPrintable(part + QStringLiteral(": ") + inside.describe()));
    }
    QVERIFY2(upstream_.count(evil) == before + 1, upstream_.log().constData());
    QVERIFY(!upstream_.arrived(viaAddress));
    QVERIFY(!upstream_.arrived(viaName));
    const NetEvents recorded(EventLog::read(events));
    QVERIFY2(recorded.to(QStringLiteral("net.deny"), port, QStringLiteral("connect")).size() >= 2,
             qPrintable(recorded.describe()));
}

void EgressAttacks::directConnectionsFailFast_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressAttacks::directConnectionsFailFast()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().http;
    const QString url = EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port);
    const QStringList ignoreProxy{kCurl,
                                  QStringLiteral("--noproxy"),
                                  QStringLiteral("*"),
                                  QStringLiteral("-sS"),
                                  QStringLiteral("-m"),
                                  QStringLiteral("5")};
    const ProcessResult outside =
        runner->host(ignoreProxy + QStringList{url + EgressUpstream::uniquePath(QStringLiteral("direct-outside"))});
    QVERIFY2(outside.succeeded() && outside.out.contains(upstream_.marker()), qPrintable(outside.describe()));

    const QString viaCurl = EgressUpstream::uniquePath(QStringLiteral("direct-curl"));
    const QString viaSocket = EgressUpstream::uniquePath(QStringLiteral("direct-socket"));
    const QString viaV6 = EgressUpstream::uniquePath(QStringLiteral("direct-v6"));
    // Even with the destination allowed, only the proxy leads out.
    const QString script =
        probe_->attempt(
            QStringLiteral("curl"),
            QStringLiteral("start=$(date +%s%N); ") + EgressProbe::shellLine(ignoreProxy + QStringList{url + viaCurl}) +
                QStringLiteral("; echo \"exit $?\"; echo \"elapsed-ms $(( ($(date +%s%N) - start) / 1000000 ))\"")) +
        probe_->attempt(QStringLiteral("socket"),
                        probe_->shellCommand({QStringLiteral("direct"), QStringLiteral("127.0.0.1"),
                                              QString::number(port), viaSocket})) +
        probe_->attempt(QStringLiteral("v6"), probe_->shellCommand({QStringLiteral("direct"), QStringLiteral("::1"),
                                                                    QString::number(port), viaV6}));
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("direct"));
    const ProcessResult inside = runner->moatShell(sandbox(events, {EgressSandbox::loopback(port)}), script);
    const QMap<QString, QByteArray> parts = EgressProbe::sections(inside.out);
    for (const QString& part : {QStringLiteral("curl"), QStringLiteral("socket"), QStringLiteral("v6")}) {
        const QByteArray attempt = parts.value(part);
        const QString elapsed = EgressProbe::value(attempt, QStringLiteral("elapsed-ms"));
        QVERIFY2(!attempt.contains(upstream_.marker()) && !attempt.contains("exit 0") && !elapsed.isNull() &&
                     elapsed.toInt() < 2000,
                 qPrintable(part + QStringLiteral(": ") + inside.describe()));
    }
    for (const QString& path : {viaCurl, viaSocket, viaV6}) {
        QVERIFY(!upstream_.arrived(path));
    }
}

void EgressAttacks::udpGoesNowhere_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressAttacks::udpGoesNowhere()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const int port = upstream_.ports().udp;
    const QStringList echo =
        probe_->command({QStringLiteral("udp"), QStringLiteral("127.0.0.1"), QString::number(port)});
    const ProcessResult outside = runner->host(echo);
    QVERIFY2(outside.succeeded() && outside.out.contains("reply echo moat-udp-probe"), qPrintable(outside.describe()));
    const int datagrams = upstream_.count("udp ");

    // --allow-host names TCP destinations for the proxy; UDP has no way out
    // at all, whatever is allowed.
    const QString script =
        probe_->attempt(QStringLiteral("loopback"), EgressProbe::shellLine(echo)) +
        probe_->attempt(QStringLiteral("v6"),
                        probe_->shellCommand({QStringLiteral("udp"), QStringLiteral("::1"), QString::number(port)})) +
        probe_->attempt(
            QStringLiteral("public"),
            probe_->shellCommand({QStringLiteral("udp"), QStringLiteral("1.1.1.1"), QStringLiteral("53")})) +
        // Nor through the SOCKS5 proxy, which relays TCP streams only.
        probe_->attempt(QStringLiteral("udp associate"),
                        probe_->shellCommand({QStringLiteral("socks5"), QString::number(EgressProbe::kSocksPort),
                                              QStringLiteral("127.0.0.1"), QString::number(port),
                                              QStringLiteral("--command"), QStringLiteral("udp")})) +
        probe_->attempt(QStringLiteral("bind"),
                        probe_->shellCommand({QStringLiteral("socks5"), QString::number(EgressProbe::kSocksPort),
                                              QStringLiteral("127.0.0.1"), QString::number(port),
                                              QStringLiteral("--command"), QStringLiteral("bind")}));
    const ProcessResult inside =
        runner->moatShell(sandbox(EgressSandbox::eventsFile(*runner, QStringLiteral("udp")),
                                  {EgressSandbox::loopback(port), QStringLiteral("1.1.1.1:53")}),
                          script);
    const QMap<QString, QByteArray> parts = EgressProbe::sections(inside.out);
    for (const QString& part : {QStringLiteral("loopback"), QStringLiteral("v6"), QStringLiteral("public")}) {
        QVERIFY2(parts.value(part).startsWith("failed"), qPrintable(part + QStringLiteral(": ") + inside.describe()));
    }
    for (const QString& part : {QStringLiteral("udp associate"), QStringLiteral("bind")}) {
        QVERIFY2(parts.value(part).startsWith("reply 0x07"),
                 qPrintable(part + QStringLiteral(": ") + inside.describe()));
    }
    QCOMPARE(upstream_.count("udp "), datagrams);
}

void EgressAttacks::namesDoNotResolveInside_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressAttacks::namesDoNotResolveInside()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QStringList lookup{kGetent, QStringLiteral("hosts"), QStringLiteral("example.com")};
    const ProcessResult outside = runner->host(lookup);
    if (!outside.succeeded()) {
        qInfo("the host cannot resolve example.com itself (getent exit %d); showing the refusal only",
              outside.exitCode);
    }
    // Allowing the name opens the proxy to it, not the resolver: the proxy
    // resolves on the host, the agent never learns an address.
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("dns"));
    const ProcessResult inside = runner->moatRun(sandbox(events, {QStringLiteral("example.com")}), lookup);
    QVERIFY2(inside.exitCode != 0 && inside.out.isEmpty(), qPrintable(inside.describe()));
    QVERIFY2(inside.elapsedMs < 5000, qPrintable(inside.describe()));
    const NetEvents recorded(EventLog::read(events));
    bool seen = false;
    for (const QJsonObject& query : recorded.data(QStringLiteral("dns.query"))) {
        seen = seen || query.value(QStringLiteral("name")).toString() == QLatin1String("example.com");
    }
    QVERIFY2(seen, qPrintable(recorded.describe()));
}

void EgressAttacks::rootInsideCannotRouteAroundTheProxy_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void EgressAttacks::rootInsideCannotRouteAroundTheProxy()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QString ip = QStringLiteral("/usr/sbin/ip");
    if (!QFileInfo(ip).isExecutable()) {
        ip = QStringLiteral("/usr/bin/busybox ip");
        if (!QFileInfo(QStringLiteral("/usr/bin/busybox")).isExecutable()) {
            QSKIP("neither ip (iproute2) nor busybox is installed, so there is no tool to change routes with");
        }
    }
    const int port = upstream_.ports().alt;
    const QString url = EgressUpstream::url(QStringLiteral("http"), QStringLiteral("127.0.0.1"), port);
    const QStringList direct{kCurl,
                             QStringLiteral("--noproxy"),
                             QStringLiteral("*"),
                             QStringLiteral("-sS"),
                             QStringLiteral("-m"),
                             QStringLiteral("3")};
    const ProcessResult outside =
        runner->host(direct + QStringList{url + EgressUpstream::uniquePath(QStringLiteral("route-outside"))});
    QVERIFY2(outside.succeeded() && outside.out.contains(upstream_.marker()), qPrintable(outside.describe()));

    // Root of the sandbox's own user namespace owns its network namespace:
    // it may add addresses and routes there, and TCP is allowed
    // (--local-tcp), yet that namespace has no link to anywhere.
    const QString viaLoopback = EgressUpstream::uniquePath(QStringLiteral("route-loopback"));
    const QString viaRoute = EgressUpstream::uniquePath(QStringLiteral("route-default"));
    const QString viaProxy = EgressUpstream::uniquePath(QStringLiteral("route-proxy"));
    const QString script =
        probe_->attempt(QStringLiteral("setup"),
                        QStringLiteral("%1 addr add 10.200.0.2/24 dev lo && %1 route add default dev lo && "
                                       "echo routes-changed; %1 route")
                            .arg(ip)) +
        probe_->attempt(QStringLiteral("loopback"), EgressProbe::shellLine(direct + QStringList{url + viaLoopback})) +
        probe_->attempt(QStringLiteral("route"),
                        EgressProbe::shellLine(
                            direct + QStringList{EgressUpstream::url(QStringLiteral("http"),
                                                                     QStringLiteral("10.200.0.1"), port, viaRoute)})) +
        probe_->attempt(QStringLiteral("proxy"),
                        proxyRequest(absoluteRequest(EgressSandbox::loopback(port), viaProxy)));
    const QString events = EgressSandbox::eventsFile(*runner, QStringLiteral("route"));
    const ProcessResult inside =
        runner->moatShell(sandbox(events, {EgressSandbox::loopback(upstream_.ports().http)}) +
                              QStringList{QStringLiteral("--sudo"), QStringLiteral("--local-tcp")},
                          script, EgressSandbox::patient(60000));
    const QMap<QString, QByteArray> parts = EgressProbe::sections(inside.out);
    if (!parts.value(QStringLiteral("setup")).contains("routes-changed")) {
        qInfo("root inside could not change its routes: %s", qPrintable(inside.stdErr().trimmed()));
    }
    QVERIFY2(!inside.out.contains(upstream_.marker()), qPrintable(inside.describe()));
    QVERIFY2(EgressProbe::status(parts.value(QStringLiteral("proxy"))) == 403, qPrintable(inside.describe()));
    for (const QString& path : {viaLoopback, viaRoute, viaProxy}) {
        QVERIFY(!upstream_.arrived(path));
    }
}

QTEST_GUILESS_MAIN(EgressAttacks)
#include "tst_egress_attacks.moc"
