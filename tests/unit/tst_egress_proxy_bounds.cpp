// SPDX-License-Identifier: Apache-2.0
// The egress proxy against a hostile client and broken upstreams, in-process
// on loopback with short limits: every bad input gets a bounded, clear
// outcome (an HTTP status with a reason, a SOCKS refusal code, or a closed
// tunnel) and the proxy keeps serving everyone else. Tunnels carry bytes
// both ways with half-close, and never to a server the SNI names instead of
// the tunnel's destination.
#include "client_hello_builder.h"
#include "proxy_test_rig.h"

#include <QTest>

using namespace proxy_rig;
using namespace std::chrono_literals;
using moat::EgressEvent;

namespace {

const std::vector<std::string> kNoRules;

moat::ProxyLimits shortLimits()
{
    moat::ProxyLimits limits;
    limits.headTimeout = std::chrono::seconds(1);
    limits.keepAliveIdle = std::chrono::seconds(2);
    limits.responseTimeout = std::chrono::seconds(1);
    limits.bodyIdleTimeout = std::chrono::seconds(2);
    limits.tunnelIdle = std::chrono::seconds(1);
    limits.halfClosedIdle = std::chrono::seconds(1);
    limits.clientHelloTimeout = std::chrono::seconds(1);
    return limits;
}

QByteArray statusLine(const QByteArray& response)
{
    return response.left(response.indexOf("\r\n"));
}

QByteArray connectRequest(const QByteArray& authority)
{
    return "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
}

QByteArray controlRequest()
{
    return "GET /v1/session HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
}

// Waits for an event the proxy records from its own thread.
bool waitForEvent(ProxyRig& rig, EgressEvent::Kind kind, EgressEvent* found = nullptr)
{
    for (int i = 0; i < 200; ++i) {
        for (const auto& event : rig.events()) {
            if (event.kind == kind) {
                if (found) {
                    *found = event;
                }
                return true;
            }
        }
        std::this_thread::sleep_for(10ms);
    }
    return false;
}

}  // namespace

class EgressProxyBounds : public QObject {
    Q_OBJECT

private slots:
    void refusedDestinationGets403NamingTheFlag();
    void malformedRequestGets400();
    void oversizedHeadGets431();
    void slowClientIsCutOffWhileOthersAreServed();
    void upstreamThatNeverAnswersGets504();
    void aBodyThatStallsIsCutOff();
    void plainRequestIsForwardedInOriginForm();
    void tunnelRelaysBothWaysWithHalfClose();
    void serverNameOfAnotherHostClosesTunnelUnseen();
    void serverNameOfTheDestinationPasses();
    void idleTunnelIsClosed();
    void connectionsOverTheLimitAreClosed();
    void manyIdleConnectionsDoNotStopService();
    void socksRefusalUsesTheRulesetCode();
    void socksTunnelRelays();
    void controlEndpointIsNeverForwarded();
};

void EgressProxyBounds::refusedDestinationGets403NamingTheFlag()
{
    ProxyRig rig(kNoRules, shortLimits());
    auto client = connectTo(rig.httpPort());
    QVERIFY(sendAll(client.get(), connectRequest("example.com:443")));
    bool closed = false;
    const QByteArray response = receive(client.get(), 3s, {}, &closed);
    QCOMPARE(statusLine(response), QByteArray("HTTP/1.1 403 Forbidden"));
    QVERIFY2(response.contains("moat: example.com:443 is not allowed; run with --allow-host example.com\n"),
             response.constData());
    QVERIFY(closed);
    EgressEvent event;
    QVERIFY(waitForEvent(rig, EgressEvent::Kind::Deny, &event));
    QCOMPARE(event.protocol, std::string("connect"));
    QCOMPARE(event.host, std::string("example.com"));
    QCOMPARE(event.suggestion, std::string("--allow-host example.com"));
}

void EgressProxyBounds::malformedRequestGets400()
{
    ProxyRig rig(kNoRules, shortLimits());
    auto client = connectTo(rig.httpPort());
    QVERIFY(sendAll(client.get(), "NOT HTTP AT ALL\r\n\r\n"));
    const QByteArray response = receive(client.get(), 3s);
    QCOMPARE(statusLine(response), QByteArray("HTTP/1.1 400 Bad Request"));
    QVERIFY(response.contains("moat: "));
}

void EgressProxyBounds::oversizedHeadGets431()
{
    moat::ProxyLimits limits = shortLimits();
    ProxyRig rig(kNoRules, limits);
    auto client = connectTo(rig.httpPort());
    const QByteArray head = "GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\nX-Big: " +
                            QByteArray(static_cast<qsizetype>(limits.maxHeaderBytes) + 1, 'a') + "\r\n\r\n";
    sendAll(client.get(), head);  // the proxy may close before reading it all
    const QByteArray response = receive(client.get(), 3s);
    QCOMPARE(statusLine(response), QByteArray("HTTP/1.1 431 Request Header Fields Too Large"));
}

void EgressProxyBounds::slowClientIsCutOffWhileOthersAreServed()
{
    ProxyRig rig(kNoRules, shortLimits());
    auto slow = connectTo(rig.httpPort());
    QElapsedTimer clock;
    clock.start();
    const QByteArray head = "GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n";
    bool cutOff = false;
    for (char byte : head) {
        if (!sendAll(slow.get(), QByteArray(1, byte))) {
            cutOff = true;
            break;
        }
        // Meanwhile another client is served at once.
        if (clock.elapsed() > 300 && clock.elapsed() < 500) {
            auto other = connectTo(rig.httpPort());
            QVERIFY(sendAll(other.get(), controlRequest()));
            QCOMPARE(statusLine(receive(other.get(), 1s)), QByteArray("HTTP/1.1 200 OK"));
        }
        pollfd ready{slow.get(), POLLIN, 0};
        if (::poll(&ready, 1, 200) > 0) {
            cutOff = true;
            break;
        }
    }
    QVERIFY(cutOff);
    const QByteArray response = receive(slow.get(), 2s);
    QCOMPARE(statusLine(response), QByteArray("HTTP/1.1 408 Request Timeout"));
    QVERIFY2(clock.elapsed() < 2500, qPrintable(QString::number(clock.elapsed())));
}

void EgressProxyBounds::upstreamThatNeverAnswersGets504()
{
    Upstream silent(Upstream::Mode::Record);
    const std::string authority = "127.0.0.1:" + std::to_string(silent.port());
    ProxyRig rig({authority}, shortLimits());
    auto client = connectTo(rig.httpPort());
    QElapsedTimer clock;
    clock.start();
    QVERIFY(sendAll(client.get(), QByteArray::fromStdString("GET http://" + authority + "/slow HTTP/1.1\r\nHost: " +
                                                            authority + "\r\n\r\n")));
    const QByteArray response = receive(client.get(), 4s);
    QCOMPARE(statusLine(response), QByteArray("HTTP/1.1 504 Gateway Timeout"));
    QVERIFY(response.contains("sent no response within 1 s"));
    QVERIFY(clock.elapsed() < 3000);
}

// A body that stops coming is cut off bodyIdleTimeout (2 s) after it
// stopped, not held open for ever.
void EgressProxyBounds::aBodyThatStallsIsCutOff()
{
    Upstream upstream(Upstream::Mode::Record);
    const std::string authority = "127.0.0.1:" + std::to_string(upstream.port());
    ProxyRig rig({authority}, shortLimits());
    const QByteArray head = QByteArray::fromStdString("POST http://" + authority + "/upload HTTP/1.1\r\nHost: " +
                                                      authority + "\r\nContent-Length: 70\r\n\r\n");
    auto stalling = connectTo(rig.httpPort());
    QVERIFY(sendAll(stalling.get(), head));
    QVERIFY(sendAll(stalling.get(), QByteArray(10, 'x')));
    QElapsedTimer clock;
    clock.start();
    QTRY_VERIFY_WITH_TIMEOUT(upstream.received().startsWith("POST /upload HTTP/1.1"), 3000);
    bool closed = false;
    (void)receive(stalling.get(), 5s, {}, &closed);
    QVERIFY2(closed, "the proxy kept a stalled body's connection open");
    QVERIFY2(clock.elapsed() >= 1500 && clock.elapsed() < 4000, qPrintable(QString::number(clock.elapsed())));
}

void EgressProxyBounds::plainRequestIsForwardedInOriginForm()
{
    Upstream upstream(Upstream::Mode::Record);
    const std::string authority = "127.0.0.1:" + std::to_string(upstream.port());
    ProxyRig rig({authority}, shortLimits());
    auto client = connectTo(rig.httpPort());
    QVERIFY(sendAll(client.get(), QByteArray::fromStdString("GET http://" + authority + "/a?b=1 HTTP/1.1\r\nHost: " +
                                                            authority +
                                                            "\r\nProxy-Authorization: Basic eDp5\r\n"
                                                            "Proxy-Connection: keep-alive\r\n\r\n")));
    QTRY_VERIFY_WITH_TIMEOUT(upstream.received().contains("\r\n\r\n"), 3000);
    const QByteArray seen = upstream.received();
    QVERIFY2(seen.startsWith("GET /a?b=1 HTTP/1.1\r\n"), seen.constData());
    QVERIFY(seen.contains(QByteArray::fromStdString("Host: " + authority)));
    // What described the agent's connection to the proxy stops at the proxy.
    QVERIFY(!seen.contains("Proxy-Authorization"));
    QVERIFY(!seen.contains("Proxy-Connection"));
    EgressEvent event;
    QVERIFY(waitForEvent(rig, EgressEvent::Kind::Allow, &event));
    QCOMPARE(event.method, std::string("GET"));
    QCOMPARE(event.path, std::string("/a?b=1"));
}

void EgressProxyBounds::tunnelRelaysBothWaysWithHalfClose()
{
    Upstream echo(Upstream::Mode::Echo);
    const std::string authority = "127.0.0.1:" + std::to_string(echo.port());
    moat::ProxyLimits limits = shortLimits();
    limits.tunnelIdle = std::chrono::seconds(5);
    limits.halfClosedIdle = std::chrono::seconds(5);
    ProxyRig rig({authority}, limits);
    auto client = connectTo(rig.httpPort());
    QVERIFY(sendAll(client.get(), connectRequest(QByteArray::fromStdString(authority))));
    QCOMPARE(receive(client.get(), 2s, "\r\n\r\n"), QByteArray("HTTP/1.1 200 Connection established\r\n\r\n"));

    QByteArray payload(4 * 1024 * 1024, '\0');
    for (qsizetype i = 0; i < payload.size(); ++i) {
        payload[i] = char((i * 131) & 0xff);
    }
    std::thread writer([&] {
        sendAll(client.get(), payload);
        ::shutdown(client.get(), SHUT_WR);  // half-close: the echo must still come back
    });
    bool closed = false;
    const QByteArray echoed = receive(client.get(), 10s, {}, &closed);
    writer.join();
    QCOMPARE(echoed.size(), payload.size());
    QVERIFY(echoed == payload);
    QVERIFY(closed);
}

void EgressProxyBounds::serverNameOfAnotherHostClosesTunnelUnseen()
{
    Upstream upstream(Upstream::Mode::Record);
    const std::string authority = "127.0.0.1:" + std::to_string(upstream.port());
    ProxyRig rig({authority}, shortLimits());
    auto client = connectTo(rig.httpPort());
    // CONNECT and the fronted ClientHello in one write, as a fast client sends them.
    QVERIFY(sendAll(client.get(), connectRequest(QByteArray::fromStdString(authority)) +
                                      client_hello::withServerName("evil.example")));
    bool closed = false;
    const QByteArray response = receive(client.get(), 3s, {}, &closed);
    QCOMPARE(response, QByteArray("HTTP/1.1 200 Connection established\r\n\r\n"));
    QVERIFY(closed);
    EgressEvent event;
    QVERIFY(waitForEvent(rig, EgressEvent::Kind::Deny, &event));
    QVERIFY2(event.reason.find("evil.example") != std::string::npos, event.reason.c_str());
    std::this_thread::sleep_for(100ms);
    QCOMPARE(upstream.received().size(), 0);
}

void EgressProxyBounds::serverNameOfTheDestinationPasses()
{
    Upstream upstream(Upstream::Mode::Record);
    // By name: localhost is allowed only by an exact pattern plus its address.
    const std::string port = std::to_string(upstream.port());
    ProxyRig rig({"localhost:" + port, "127.0.0.1:" + port}, shortLimits());
    auto client = connectTo(rig.httpPort());
    const QByteArray hello = client_hello::withServerName("LOCALHOST.");
    QVERIFY(sendAll(client.get(), connectRequest(QByteArray::fromStdString("localhost:" + port)) + hello));
    QCOMPARE(receive(client.get(), 2s, "\r\n\r\n"), QByteArray("HTTP/1.1 200 Connection established\r\n\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(upstream.received(), hello, 3000);
}

void EgressProxyBounds::idleTunnelIsClosed()
{
    Upstream echo(Upstream::Mode::Echo);
    const std::string authority = "127.0.0.1:" + std::to_string(echo.port());
    ProxyRig rig({authority}, shortLimits());
    auto client = connectTo(rig.httpPort());
    QVERIFY(sendAll(client.get(), connectRequest(QByteArray::fromStdString(authority))));
    QCOMPARE(receive(client.get(), 2s, "\r\n\r\n"), QByteArray("HTTP/1.1 200 Connection established\r\n\r\n"));
    QElapsedTimer clock;
    clock.start();
    bool closed = false;
    receive(client.get(), 4s, {}, &closed);
    QVERIFY(closed);
    QVERIFY2(clock.elapsed() >= 900 && clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
}

void EgressProxyBounds::connectionsOverTheLimitAreClosed()
{
    moat::ProxyLimits limits = shortLimits();
    limits.maxConnections = 4;
    limits.headTimeout = std::chrono::seconds(10);
    ProxyRig rig(kNoRules, limits);
    std::vector<moat::UniqueFd> held;
    for (int i = 0; i < 4; ++i) {
        held.push_back(connectTo(rig.httpPort()));
    }
    QTRY_COMPARE_WITH_TIMEOUT(rig.openConnections(), std::size_t{4}, 3000);
    auto extra = connectTo(rig.httpPort());
    bool closed = false;
    QCOMPARE(receive(extra.get(), 2s, {}, &closed), QByteArray());
    QVERIFY(closed);
    held.pop_back();
    QTRY_COMPARE_WITH_TIMEOUT(rig.openConnections(), std::size_t{3}, 3000);
    auto next = connectTo(rig.httpPort());
    QVERIFY(sendAll(next.get(), controlRequest()));
    QCOMPARE(statusLine(receive(next.get(), 2s)), QByteArray("HTTP/1.1 200 OK"));
}

void EgressProxyBounds::manyIdleConnectionsDoNotStopService()
{
    moat::ProxyLimits limits = shortLimits();
    limits.headTimeout = std::chrono::seconds(20);
    ProxyRig rig(kNoRules, limits);
    std::vector<moat::UniqueFd> idle;
    for (int i = 0; i < 1000; ++i) {
        idle.push_back(connectTo(rig.httpPort()));
        QVERIFY(idle.back().valid());
    }
    QTRY_COMPARE_WITH_TIMEOUT(rig.openConnections(), std::size_t{1000}, 5000);
    QElapsedTimer clock;
    clock.start();
    auto client = connectTo(rig.httpPort());
    QVERIFY(sendAll(client.get(), controlRequest()));
    QCOMPARE(statusLine(receive(client.get(), 2s)), QByteArray("HTTP/1.1 200 OK"));
    QVERIFY(clock.elapsed() < 1000);
}

void EgressProxyBounds::socksRefusalUsesTheRulesetCode()
{
    ProxyRig rig(kNoRules, shortLimits());
    auto client = connectTo(rig.socksPort());
    QVERIFY(sendAll(client.get(), QByteArray::fromHex("050100")));
    QCOMPARE(receive(client.get(), 2s, {}, nullptr, 2), QByteArray::fromHex("0500"));
    const QByteArray name = "example.com";
    QVERIFY(sendAll(client.get(), QByteArray::fromHex("05010003") + char(name.size()) + name +
                                      QByteArray::fromHex("01bb")));
    const QByteArray reply = receive(client.get(), 2s, {}, nullptr, 10);
    QCOMPARE(reply.size(), 10);
    QCOMPARE(int(reply[1]), 0x02);
    EgressEvent event;
    QVERIFY(waitForEvent(rig, EgressEvent::Kind::Deny, &event));
    QCOMPARE(event.protocol, std::string("socks5"));
    QCOMPARE(event.port, std::uint16_t{443});
}

void EgressProxyBounds::socksTunnelRelays()
{
    Upstream echo(Upstream::Mode::Echo);
    ProxyRig rig({"127.0.0.1:" + std::to_string(echo.port())}, shortLimits());
    auto client = connectTo(rig.socksPort());
    QVERIFY(sendAll(client.get(), QByteArray::fromHex("050100")));
    QCOMPARE(receive(client.get(), 2s, {}, nullptr, 2), QByteArray::fromHex("0500"));
    QByteArray request = QByteArray::fromHex("050100017f000001");
    request += char(echo.port() >> 8);
    request += char(echo.port() & 0xff);
    QVERIFY(sendAll(client.get(), request + "ping"));
    const QByteArray reply = receive(client.get(), 2s, {}, nullptr, 14);
    QCOMPARE(reply.left(2), QByteArray::fromHex("0500"));
    QCOMPARE(reply.mid(10), QByteArray("ping"));
}

void EgressProxyBounds::controlEndpointIsNeverForwarded()
{
    // Even with the listener's own address allowed, a request for it is
    // answered by the proxy, never sent on to the host's 127.0.0.1.
    ProxyRig rig([](std::uint16_t httpPort) { return std::vector<std::string>{"127.0.0.1:" + std::to_string(httpPort)}; },
                 shortLimits());
    auto client = connectTo(rig.httpPort());
    const std::string authority = "127.0.0.1:" + std::to_string(rig.httpPort());
    QVERIFY(sendAll(client.get(), QByteArray::fromStdString("GET http://" + authority +
                                                            "/v1/session HTTP/1.1\r\nHost: " + authority +
                                                            "\r\nConnection: close\r\n\r\n")));
    const QByteArray response = receive(client.get(), 2s);
    QCOMPARE(statusLine(response), QByteArray("HTTP/1.1 200 OK"));
    QVERIFY(response.contains("\"id\":\"rig-session\""));
    QVERIFY(rig.events().empty());
}

QTEST_GUILESS_MAIN(EgressProxyBounds)
#include "tst_egress_proxy_bounds.moc"
