// SPDX-License-Identifier: Apache-2.0
// TLS interception through the real proxy on loopback: curl and openssl
// s_client as the sandbox's clients, python3's TLS server as the upstream,
// a test CA of its own. What an intercepted host's requests go through, and
// that every other host stays a blind tunnel.

#include "egress/tls/http_exchange_filter.h"
#include "egress/tls/session_authority.h"
#include "egress/tls/upstream_tls.h"
#include "proxy_test_rig.h"
#include "tls_test_upstream.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>

#include <QtTest>

#include <thread>

using proxy_rig::ProxyRig;
using tls_rig::Certificates;
using tls_rig::Upstream;

namespace {

// The filter a rule or a secret would be, reduced to what each test needs.
class TestFilter : public moat::HttpExchangeFilter {
public:
    boost::asio::awaitable<moat::FilterVerdict> onRequest(moat::RequestView& request) override
    {
        ++seen;
        const std::string target(request.target());
        if (target.starts_with("/forbidden")) {
            co_return moat::FilterVerdict::refuse("the test rule refuses " + target);
        }
        if (target == "/throw") {
            throw std::runtime_error("a filter bug, with Bearer placeholder-123 in its message");
        }
        if (target == "/held") {
            // An "ask": the answer comes later, and the proxy goes on meanwhile.
            boost::asio::steady_timer wait(co_await boost::asio::this_coro::executor, std::chrono::seconds(3));
            co_await wait.async_wait(boost::asio::use_awaitable);
            co_return moat::FilterVerdict::forward("held, then allowed");
        }
        if (target == "/push") {
            auto body = co_await request.body();
            if (!body) {
                co_return moat::FilterVerdict::refuse(body.error().what, 413);
            }
            if (body.value().find("refs/heads/main") != std::string_view::npos) {
                co_return moat::FilterVerdict::refuse("a push to refs/heads/main needs approval");
            }
            co_return moat::FilterVerdict::forward("a push to another branch");
        }
        auto& headers = request.headers();
        if (headers[boost::beast::http::field::authorization] == "Bearer placeholder-123") {
            headers.set(boost::beast::http::field::authorization, "Bearer the-real-secret");
        }
        if (target == "/framing") {
            headers.set(boost::beast::http::field::host, "elsewhere.test");
        }
        co_return moat::FilterVerdict::forward("test rule allows " + target);
    }

    std::atomic<int> seen{0};
};

moat::ProxyLimits testLimits()
{
    moat::ProxyLimits limits;
    limits.headTimeout = std::chrono::seconds(5);
    limits.connectTimeout = std::chrono::seconds(5);
    limits.responseTimeout = std::chrono::seconds(10);
    return limits;
}

// A proxy that intercepts every allowed CONNECT (or none), trusting the
// test CA for upstreams.
struct InterceptingProxy {
    InterceptingProxy(const Certificates& certificates, const Upstream& upstream, bool intercept = true,
                      std::size_t maxBody = 1024 * 1024)
        : InterceptingProxy(certificates, upstream.authority(), intercept, maxBody)
    {
    }
    InterceptingProxy(const Certificates& certificates, const std::string& allowed, bool intercept = true,
                      std::size_t maxBody = 1024 * 1024)
    {
        authority = moat::SessionAuthority::create().value();
        auto upstreamTls = moat::UpstreamTls::create(certificates.caFile().toStdString());
        if (!upstreamTls) {
            qFatal("%s", upstreamTls.error().message().c_str());
        }
        moat::TlsInterception interception;
        interception.authority = authority;
        interception.upstreamTls = upstreamTls.value();
        interception.maxInspectedBody = maxBody;
        interception.intercept = [filter = filter, intercept](const std::string&, std::uint16_t)
            -> std::shared_ptr<moat::HttpExchangeFilter> { return intercept ? filter : nullptr; };
        rig = std::make_unique<ProxyRig>([allowed](std::uint16_t) { return std::vector<std::string>{allowed}; },
                                         testLimits(), std::move(interception));
        sessionCa = certificates.write("session-ca.pem", authority->certificatePem());
    }

    // curl through the proxy, trusting `ca` (the session CA by default);
    // stdout is the body, then a line with the status.
    tls_rig::Run curl(const Upstream& upstream, const QStringList& paths, QStringList extra = {},
                      const QString& ca = {}) const
    {
        QStringList arguments{"-sS", "--max-time", "20", "--proxy", "http://127.0.0.1:" + QString::number(rig->httpPort()),
                              "--cacert", ca.isEmpty() ? sessionCa : ca, "-w", "%{http_code}\\n"};
        arguments += extra;
        for (const QString& path : paths) {
            arguments << "https://127.0.0.1:" + QString::number(upstream.port()) + path;
        }
        return tls_rig::run("curl", arguments);
    }

    std::vector<moat::EgressEvent> requestEvents() const
    {
        std::vector<moat::EgressEvent> found;
        for (const auto& event : rig->events()) {
            if (event.protocol == "https") {
                found.push_back(event);
            }
        }
        return found;
    }

    std::shared_ptr<TestFilter> filter = std::make_shared<TestFilter>();
    std::shared_ptr<moat::SessionAuthority> authority;
    std::unique_ptr<ProxyRig> rig;
    QString sessionCa;
};

}  // namespace

class TlsInterception : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(certificates_.ok(), "the openssl command could not make the test certificates");
        if (QStandardPaths::findExecutable("curl").isEmpty()) {
            QSKIP("curl is not installed");
        }
    }

    void theUpstreamReceivesTheFilterRewrite()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        QVERIFY(upstream.port() != 0);
        InterceptingProxy proxy(certificates_, upstream);
        const auto result = proxy.curl(upstream, {"/repos/o/r/issues"}, {"-H", "Authorization: Bearer placeholder-123"});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, QByteArray("upstream saw GET /repos/o/r/issues\n200\n"));
        const auto requests = upstream.requests();
        QCOMPARE(requests.size(), 1);
        QCOMPARE(Upstream::header(requests[0], "Authorization"), QString("Bearer the-real-secret"));
        QCOMPARE(Upstream::header(requests[0], "Proxy-Connection"), QString());

        // The CONNECT is recorded as intercepted, the request as its own
        // event, without a header value in either.
        const auto events = proxy.rig->events();
        QCOMPARE(events.size(), std::size_t(2));
        QCOMPARE(events[0].protocol, std::string("connect"));
        QVERIFY(events[0].intercepted);
        QCOMPARE(events[1].kind, moat::EgressEvent::Kind::Allow);
        QCOMPARE(events[1].method, std::string("GET"));
        QCOMPARE(events[1].path, std::string("/repos/o/r/issues"));
        QCOMPARE(events[1].host, std::string("127.0.0.1"));
        QCOMPARE(events[1].reason, std::string("test rule allows /repos/o/r/issues"));
        for (const auto& event : events) {
            QVERIFY(event.reason.find("secret") == std::string::npos);
        }
    }

    void keepAliveRequestsEachPassTheFilter()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream);
        const auto result = proxy.curl(upstream, {"/one", "/two"});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, QByteArray("upstream saw GET /one\n200\nupstream saw GET /two\n200\n"));
        QCOMPARE(proxy.filter->seen.load(), 2);
        QCOMPARE(proxy.requestEvents().size(), std::size_t(2));
        // One CONNECT for both: the relay kept the connection.
        QCOMPARE(proxy.rig->events().size(), std::size_t(3));
    }

    void aRefusedRequestGetsItsAnswerInsideTlsAndNeverReachesTheUpstream()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream);
        const auto result = proxy.curl(upstream, {"/forbidden/thing"});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, QByteArray("moat: the test rule refuses /forbidden/thing\n403\n"));
        QVERIFY(upstream.requests().isEmpty());
        const auto events = proxy.requestEvents();
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(events[0].kind, moat::EgressEvent::Kind::Deny);
        QCOMPARE(events[0].reason, std::string("the test rule refuses /forbidden/thing"));
    }

    void aFailingFilterRefusesWithoutItsMessage()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream);
        auto result = proxy.curl(upstream, {"/throw"});
        QCOMPARE(result.out, QByteArray("moat: the request filter failed; the request was not forwarded\n500\n"));
        // A filter may not move the request to another host either.
        result = proxy.curl(upstream, {"/framing"});
        QVERIFY(result.out.endsWith("\n500\n"));
        QVERIFY(result.out.contains("changed the request's Host or framing"));
        QVERIFY(upstream.requests().isEmpty());
    }

    void aHostHeaderForAnotherHostIsRefused()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream);
        const auto result = proxy.curl(upstream, {"/"}, {"-H", "Host: other.example"});
        QVERIFY(result.out.endsWith("\n421\n"));
        QVERIFY(result.out.contains("names another host than the tunnel's destination"));
        QVERIFY(upstream.requests().isEmpty());
        QCOMPARE(proxy.filter->seen.load(), 0);
    }

    void theFilterReadsTheBodyBeforeItIsForwarded()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream, true, 4096);
        auto result = proxy.curl(upstream, {"/push"}, {"--data-binary", "0000 1111 refs/heads/feature"});
        QCOMPARE(result.out, QByteArray("upstream saw POST /push\n200\n"));
        result = proxy.curl(upstream, {"/push"}, {"--data-binary", "0000 1111 refs/heads/main"});
        QCOMPARE(result.out, QByteArray("moat: a push to refs/heads/main needs approval\n403\n"));
        result = proxy.curl(upstream, {"/push"}, {"--data-binary", QString(5000, 'x')});
        QVERIFY(result.out.endsWith("\n413\n"));
        QVERIFY(result.out.contains("larger than 4096 bytes"));
        const auto requests = upstream.requests();
        QCOMPARE(requests.size(), 1);
        QCOMPARE(requests[0]["body"].toString(), QString("0000 1111 refs/heads/feature"));
    }

    void aHeldRequestDoesNotHoldOtherConnections()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream);
        tls_rig::Run held;
        std::atomic<bool> heldDone{false};
        std::thread holder([&] {
            held = proxy.curl(upstream, {"/held"});
            heldDone = true;
        });
        QTRY_COMPARE_WITH_TIMEOUT(proxy.filter->seen.load(), 1, 5000);  // the held request is with the filter
        const auto other = proxy.curl(upstream, {"/other"});
        const bool otherFirst = !heldDone;
        holder.join();
        QCOMPARE(other.out, QByteArray("upstream saw GET /other\n200\n"));
        QCOMPARE(held.out, QByteArray("upstream saw GET /held\n200\n"));
        QVERIFY2(otherFirst, "the other request waited for the held one");
    }

    void aHostThatIsNotInterceptedStaysABlindTunnel()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream, false);
        // The client sees the upstream's own certificate: the test CA
        // verifies it, the session CA does not.
        auto result = proxy.curl(upstream, {"/direct"}, {}, certificates_.caFile());
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, QByteArray("upstream saw GET /direct\n200\n"));
        result = proxy.curl(upstream, {"/direct"});
        QCOMPARE(result.exitCode, 60);  // CURLE_PEER_FAILED_VERIFICATION
        QCOMPARE(proxy.filter->seen.load(), 0);
        QVERIFY(proxy.requestEvents().empty());
        QCOMPARE(proxy.authority->mintedCount(), std::uint64_t(0));
    }

    void aBadUpstreamCertificateIsARefusalWithItsReason_data()
    {
        QTest::addColumn<QString>("leaf");
        QTest::addColumn<QString>("reason");
        QTest::newRow("self-signed") << "self-signed" << "did not verify: self-signed certificate";
        QTest::newRow("another address") << "wrong-name" << "did not verify: IP address mismatch";
    }
    void aBadUpstreamCertificateIsARefusalWithItsReason()
    {
        QFETCH(QString, leaf);
        QFETCH(QString, reason);
        Upstream upstream(certificates_.certificate(leaf), certificates_.key(leaf));
        InterceptingProxy proxy(certificates_, upstream);
        const auto result = proxy.curl(upstream, {"/anything"});
        const QByteArray expected = "moat: upstream certificate for 127.0.0.1:" + QByteArray::number(upstream.port()) +
                                    " " + reason.toUtf8() + "\n502\n";
        QCOMPARE(result.out, expected);
        QCOMPARE(proxy.filter->seen.load(), 0);
        const auto events = proxy.rig->events();
        QCOMPARE(events.back().kind, moat::EgressEvent::Kind::Deny);
        QVERIFY(QByteArray::fromStdString(events.back().reason).contains(reason.toUtf8()));
    }

    void aServerNameForAnotherHostIsRefused()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream);
        const auto result = sClient(proxy, upstream, {"-servername", "other.example"});
        QVERIFY(result.exitCode != 0);
        QVERIFY2(result.err.contains("unrecognized name"), result.err.constData());
        const auto events = proxy.rig->events();
        QCOMPARE(events.back().kind, moat::EgressEvent::Kind::Deny);
        QVERIFY(events.back().reason.starts_with("the TLS server name other.example is not the tunnel's destination"));
        QVERIFY(upstream.requests().isEmpty());
    }

    void theClientIsOfferedOnlyHttp11_data()
    {
        QTest::addColumn<QString>("offered");
        QTest::addColumn<QByteArray>("chosen");
        QTest::newRow("h2 and http/1.1") << "h2,http/1.1" << QByteArray("ALPN protocol: http/1.1");
        QTest::newRow("h2 only") << "h2" << QByteArray("No ALPN negotiated");
    }
    void theClientIsOfferedOnlyHttp11()
    {
        QFETCH(QString, offered);
        QFETCH(QByteArray, chosen);
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream);
        // No SNI: s_client would send the IP literal, which names nothing
        // and is refused like any other name that is not the destination.
        const auto result = sClient(proxy, upstream, {"-noservername", "-alpn", offered});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(result.out.contains(chosen), result.out.constData());
        QVERIFY2(result.out.contains("Verify return code: 0 (ok)"), result.out.constData());
    }

    void anInterceptedHostWithoutAnAuthorityIsNeverTunnelledBlind()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        moat::TlsInterception interception;
        interception.intercept = [](const std::string&, std::uint16_t) { return std::make_shared<TestFilter>(); };
        const std::string allowed = upstream.authority();
        ProxyRig rig([allowed](std::uint16_t) { return std::vector<std::string>{allowed}; }, testLimits(),
                     std::move(interception));
        const auto result = tls_rig::run(
            "curl", {"-sS", "--max-time", "20", "--proxy", "http://127.0.0.1:" + QString::number(rig.httpPort()),
                     "--cacert", certificates_.caFile(),
                     "https://127.0.0.1:" + QString::number(upstream.port()) + "/"});
        QCOMPARE(result.exitCode, 56);  // CURLE_RECV_ERROR: the CONNECT was refused
        QVERIFY(result.err.contains("502"));
        QVERIFY(upstream.requests().isEmpty());
        QCOMPARE(rig.events().back().kind, moat::EgressEvent::Kind::Error);
    }

    void plainHttpToAnInspectedHostGoesThroughTheFilterToo()
    {
        proxy_rig::Upstream upstream(proxy_rig::Upstream::Mode::Record);
        const std::string allowed = "127.0.0.1:" + std::to_string(upstream.port());
        InterceptingProxy proxy(certificates_, allowed);
        const QByteArray base = "http://" + QByteArray::fromStdString(allowed);

        auto client = proxy_rig::connectTo(proxy.rig->httpPort());
        QVERIFY(proxy_rig::sendAll(client.get(), "GET " + base + "/forbidden HTTP/1.1\r\nHost: " +
                                                     QByteArray::fromStdString(allowed) + "\r\n\r\n"));
        const QByteArray refused = proxy_rig::receive(client.get(), std::chrono::seconds(5), "refuses /forbidden\n");
        QVERIFY2(refused.startsWith("HTTP/1.1 403"), refused.constData());
        QVERIFY(refused.contains("moat: the test rule refuses /forbidden"));

        client = proxy_rig::connectTo(proxy.rig->httpPort());
        QVERIFY(proxy_rig::sendAll(client.get(), "GET " + base + "/x HTTP/1.1\r\nHost: " +
                                                     QByteArray::fromStdString(allowed) +
                                                     "\r\nAuthorization: Bearer placeholder-123\r\n\r\n"));
        QTRY_VERIFY_WITH_TIMEOUT(upstream.received().contains("\r\n\r\n"), 5000);
        QVERIFY(upstream.received().startsWith("GET /x HTTP/1.1\r\n"));
        QVERIFY(upstream.received().contains("Bearer the-real-secret"));
        QVERIFY(!upstream.received().contains("forbidden"));
        QCOMPARE(proxy.filter->seen.load(), 2);
    }

    void socksToAnInspectedHostIsRefused()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        InterceptingProxy proxy(certificates_, upstream);
        auto client = proxy_rig::connectTo(proxy.rig->socksPort());
        QVERIFY(proxy_rig::sendAll(client.get(), QByteArray("\x05\x01\x00", 3)));
        QCOMPARE(proxy_rig::receive(client.get(), std::chrono::seconds(5), {}, nullptr, 2), QByteArray("\x05\x00", 2));
        QByteArray connect("\x05\x01\x00\x01\x7f\x00\x00\x01", 8);
        connect.append(static_cast<char>(upstream.port() >> 8)).append(static_cast<char>(upstream.port() & 0xff));
        QVERIFY(proxy_rig::sendAll(client.get(), connect));
        const QByteArray reply = proxy_rig::receive(client.get(), std::chrono::seconds(5), {}, nullptr, 10);
        QVERIFY(reply.size() >= 2);
        QCOMPARE(int(reply[1]), 0x02);  // not allowed by ruleset
        const auto events = proxy.rig->events();
        QCOMPARE(events.back().kind, moat::EgressEvent::Kind::Deny);
        QVERIFY(events.back().reason.find("reach it through the HTTP proxy") != std::string::npos);
        QVERIFY(upstream.requests().isEmpty());
    }

private:
    tls_rig::Run sClient(const InterceptingProxy& proxy, const Upstream& upstream, QStringList extra) const
    {
        QStringList arguments{"s_client", "-proxy", "127.0.0.1:" + QString::number(proxy.rig->httpPort()), "-connect",
                              QString::fromStdString(upstream.authority()), "-CAfile", proxy.sessionCa,
                              "-verify_return_error"};
        arguments += extra;
        return tls_rig::run("openssl", arguments, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    }

    Certificates certificates_;
};

QTEST_GUILESS_MAIN(TlsInterception)
#include "tst_tls_interception.moc"
