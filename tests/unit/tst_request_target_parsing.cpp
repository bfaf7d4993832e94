// SPDX-License-Identifier: Apache-2.0
// RequestTarget decides where the egress proxy connects for an HTTP request
// from the (hostile) agent. The target alone names the destination; anything
// ambiguous — userinfo, percent-encoded hosts, a Host header that disagrees,
// two Host headers, https:// in absolute-form — is refused with a reason.
#include "egress/request_target.h"

#include <QTest>

#include <string>
#include <vector>

using moat::RequestTarget;
using Kind = RequestTarget::Kind;
using HostKind = RequestTarget::HostKind;

namespace {

std::string toStd(const QByteArray& bytes) { return std::string(bytes.constData(), static_cast<size_t>(bytes.size())); }

moat::Result<RequestTarget> parse(const QByteArray& method, const QByteArray& target, const QByteArrayList& hosts)
{
    std::vector<std::string> storage;
    for (const QByteArray& host : hosts) {
        storage.push_back(toStd(host));
    }
    const std::vector<std::string_view> views(storage.begin(), storage.end());
    return RequestTarget::parse(toStd(method), toStd(target), views);
}

}  // namespace

class RequestTargetParsing : public QObject {
    Q_OBJECT

private slots:
    void acceptsWhatProxyClientsSend_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArrayList>("hosts");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("hostKind");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("path");

        const int authority = int(Kind::Authority);
        const int absolute = int(Kind::Absolute);
        const int name = int(HostKind::Name);
        const int v4 = int(HostKind::Ipv4);
        const int v6 = int(HostKind::Ipv6);

        QTest::newRow("CONNECT as curl sends it") << QByteArray("CONNECT") << QByteArray("example.com:443")
            << QByteArrayList{"example.com:443"} << authority << "example.com" << name << 443 << "";
        QTest::newRow("CONNECT without Host (HTTP/1.0)") << QByteArray("CONNECT") << QByteArray("example.com:443")
            << QByteArrayList{} << authority << "example.com" << name << 443 << "";
        QTest::newRow("CONNECT, Host without port") << QByteArray("CONNECT") << QByteArray("example.com:443")
            << QByteArrayList{"example.com"} << authority << "example.com" << name << 443 << "";
        QTest::newRow("CONNECT host is lower-cased") << QByteArray("CONNECT") << QByteArray("GitHub.COM:443")
            << QByteArrayList{"github.com:443"} << authority << "github.com" << name << 443 << "";
        QTest::newRow("CONNECT trailing root dot removed") << QByteArray("CONNECT") << QByteArray("example.com.:443")
            << QByteArrayList{"example.com:443"} << authority << "example.com" << name << 443 << "";
        QTest::newRow("CONNECT underscore in a name") << QByteArray("CONNECT") << QByteArray("_srv.example.com:8443")
            << QByteArrayList{} << authority << "_srv.example.com" << name << 8443 << "";
        QTest::newRow("CONNECT port 1") << QByteArray("CONNECT") << QByteArray("a.example:1")
            << QByteArrayList{} << authority << "a.example" << name << 1 << "";
        QTest::newRow("CONNECT port 65535") << QByteArray("CONNECT") << QByteArray("a.example:65535")
            << QByteArrayList{} << authority << "a.example" << name << 65535 << "";
        QTest::newRow("CONNECT IPv4") << QByteArray("CONNECT") << QByteArray("127.0.0.1:22")
            << QByteArrayList{"127.0.0.1:22"} << authority << "127.0.0.1" << v4 << 22 << "";
        QTest::newRow("CONNECT short IPv4 kept as written") << QByteArray("CONNECT") << QByteArray("127.1:80")
            << QByteArrayList{} << authority << "127.1" << v4 << 80 << "";
        QTest::newRow("CONNECT hex IPv4 kept as written") << QByteArray("CONNECT") << QByteArray("0X7F.0.0.1:80")
            << QByteArrayList{} << authority << "0x7f.0.0.1" << v4 << 80 << "";
        QTest::newRow("CONNECT octal IPv4 kept as written") << QByteArray("CONNECT") << QByteArray("0177.0.0.1:80")
            << QByteArrayList{} << authority << "0177.0.0.1" << v4 << 80 << "";
        QTest::newRow("CONNECT IPv4 as one number") << QByteArray("CONNECT") << QByteArray("2130706433:80")
            << QByteArrayList{} << authority << "2130706433" << v4 << 80 << "";
        QTest::newRow("CONNECT IPv4 with root dot") << QByteArray("CONNECT") << QByteArray("10.0.0.1.:80")
            << QByteArrayList{} << authority << "10.0.0.1" << v4 << 80 << "";
        QTest::newRow("CONNECT name ending in a number is an address") << QByteArray("CONNECT") << QByteArray("example.123:80")
            << QByteArrayList{} << authority << "example.123" << v4 << 80 << "";
        QTest::newRow("CONNECT number-led name is a name") << QByteArray("CONNECT") << QByteArray("1.2.3.example:80")
            << QByteArrayList{} << authority << "1.2.3.example" << name << 80 << "";
        QTest::newRow("CONNECT IPv6") << QByteArray("CONNECT") << QByteArray("[::1]:443")
            << QByteArrayList{"[::1]:443"} << authority << "::1" << v6 << 443 << "";
        QTest::newRow("CONNECT IPv6 made canonical") << QByteArray("CONNECT") << QByteArray("[2001:DB8:0:0::1]:443")
            << QByteArrayList{"[2001:db8::1]:443"} << authority << "2001:db8::1" << v6 << 443 << "";
        QTest::newRow("CONNECT IPv4-mapped IPv6") << QByteArray("CONNECT") << QByteArray("[::ffff:127.0.0.1]:80")
            << QByteArrayList{} << authority << "::ffff:127.0.0.1" << v6 << 80 << "";
        QTest::newRow("Host with surrounding whitespace") << QByteArray("CONNECT") << QByteArray("x.example:443")
            << QByteArrayList{" x.example:443\t"} << authority << "x.example" << name << 443 << "";

        QTest::newRow("GET absolute") << QByteArray("GET") << QByteArray("http://example.com/")
            << QByteArrayList{"example.com"} << absolute << "example.com" << name << 80 << "/";
        QTest::newRow("GET absolute without path") << QByteArray("GET") << QByteArray("http://example.com")
            << QByteArrayList{} << absolute << "example.com" << name << 80 << "/";
        QTest::newRow("GET query without path") << QByteArray("GET") << QByteArray("http://example.com?q=1")
            << QByteArrayList{} << absolute << "example.com" << name << 80 << "/?q=1";
        QTest::newRow("GET port, path, query") << QByteArray("GET") << QByteArray("http://Example.COM:8080/a/b?c=d%20e")
            << QByteArrayList{"example.com:8080"} << absolute << "example.com" << name << 8080 << "/a/b?c=d%20e";
        QTest::newRow("scheme is case-insensitive") << QByteArray("GET") << QByteArray("HTTP://example.com/x")
            << QByteArrayList{} << absolute << "example.com" << name << 80 << "/x";
        QTest::newRow("POST to IPv6") << QByteArray("POST") << QByteArray("http://[2001:db8::1]:8080/x")
            << QByteArrayList{"[2001:db8::1]:8080"} << absolute << "2001:db8::1" << v6 << 8080 << "/x";
        QTest::newRow("explicit :80, Host without port") << QByteArray("GET") << QByteArray("http://example.com:80/")
            << QByteArrayList{"example.com"} << absolute << "example.com" << name << 80 << "/";
        QTest::newRow("Host :80, target without port") << QByteArray("GET") << QByteArray("http://example.com/")
            << QByteArrayList{"example.com:80"} << absolute << "example.com" << name << 80 << "/";
        QTest::newRow("Host spelt in upper case with root dot") << QByteArray("PUT") << QByteArray("http://example.com/")
            << QByteArrayList{"EXAMPLE.com."} << absolute << "example.com" << name << 80 << "/";
        QTest::newRow("percent-encoding in the path is fine") << QByteArray("GET") << QByteArray("http://a.example/%2e%2e/")
            << QByteArrayList{} << absolute << "a.example" << name << 80 << "/%2e%2e/";
        QTest::newRow("'@' in the path is not userinfo") << QByteArray("GET") << QByteArray("http://a.example/u@x")
            << QByteArrayList{} << absolute << "a.example" << name << 80 << "/u@x";
        QTest::newRow("custom method token") << QByteArray("PROPFIND") << QByteArray("http://a.example/")
            << QByteArrayList{} << absolute << "a.example" << name << 80 << "/";
    }

    void acceptsWhatProxyClientsSend()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, target);
        QFETCH(QByteArrayList, hosts);
        QFETCH(int, kind);
        QFETCH(QString, host);
        QFETCH(int, hostKind);
        QFETCH(int, port);
        QFETCH(QString, path);

        const auto parsed = parse(method, target, hosts);
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message().c_str());
        QCOMPARE(int(parsed->kind()), kind);
        QCOMPARE(QString::fromStdString(parsed->host()), host);
        QCOMPARE(int(parsed->hostKind()), hostKind);
        QCOMPARE(int(parsed->port()), port);
        QCOMPARE(QString::fromStdString(parsed->path()), path);
        QCOMPARE(parsed->method(), toStd(method));

        // What the proxy would write on a CONNECT line parses back to the same destination.
        const auto again = RequestTarget::parse("CONNECT", parsed->authority(), {});
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().message().c_str());
        QCOMPARE(again->host(), parsed->host());
        QCOMPARE(again->port(), parsed->port());
        QCOMPARE(int(again->hostKind()), hostKind);
    }

    void refusesWhatIsAmbiguousOrMalformed_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArrayList>("hosts");
        QTest::addColumn<QString>("why");

        const QByteArray connect("CONNECT");
        const QByteArray get("GET");
        const QByteArrayList none;

        QTest::newRow("empty target") << get << QByteArray() << none << "empty";
        QTest::newRow("https in absolute-form") << get << QByteArray("https://example.com/") << none << "https://";
        QTest::newRow("HTTPS in absolute-form") << get << QByteArray("HTTPS://example.com/") << none << "https://";
        QTest::newRow("ftp scheme") << get << QByteArray("ftp://example.com/") << none << "only http://";
        QTest::newRow("empty scheme") << get << QByteArray("://example.com/") << none << "only http://";
        QTest::newRow("origin-form") << get << QByteArray("/index.html") << QByteArrayList{"example.com"} << "origin-form";
        QTest::newRow("origin-form API path") << get << QByteArray("/v1/models") << none << "origin-form";
        QTest::newRow("asterisk-form") << QByteArray("OPTIONS") << QByteArray("*") << none << "asterisk";
        QTest::newRow("authority-form without CONNECT") << get << QByteArray("example.com:443") << none << "only for CONNECT";
        QTest::newRow("connect is case-sensitive") << QByteArray("connect") << QByteArray("example.com:443") << none << "only for CONNECT";
        QTest::newRow("CONNECT without port") << connect << QByteArray("example.com") << none << "needs a port";
        QTest::newRow("CONNECT IPv6 without port") << connect << QByteArray("[::1]") << none << "needs a port";
        QTest::newRow("CONNECT empty port") << connect << QByteArray("example.com:") << none << "empty";
        QTest::newRow("CONNECT port 0") << connect << QByteArray("example.com:0") << none << "1 to 65535";
        QTest::newRow("CONNECT port 65536") << connect << QByteArray("example.com:65536") << none << "1 to 65535";
        QTest::newRow("CONNECT port 99999") << connect << QByteArray("example.com:99999") << none << "1 to 65535";
        QTest::newRow("CONNECT port with 6 digits") << connect << QByteArray("example.com:000443") << none << "1 to 65535";
        QTest::newRow("CONNECT port 2^32+443") << connect << QByteArray("example.com:4294967739") << none << "1 to 65535";
        QTest::newRow("CONNECT negative port") << connect << QByteArray("example.com:-1") << none << "1 to 65535";
        QTest::newRow("CONNECT port with sign") << connect << QByteArray("example.com:+443") << none << "1 to 65535";
        QTest::newRow("CONNECT hex port") << connect << QByteArray("example.com:0x1bb") << none << "1 to 65535";
        QTest::newRow("CONNECT to a URL") << connect << QByteArray("http://example.com:443") << none << "not a URL";
        QTest::newRow("CONNECT with a path") << connect << QByteArray("example.com:443/x") << none << "not a URL";
        QTest::newRow("CONNECT userinfo") << connect << QByteArray("user@example.com:443") << none << "user information";
        QTest::newRow("absolute userinfo") << get << QByteArray("http://user:pw@example.com/") << none << "user information";
        QTest::newRow("userinfo hiding the real host") << get << QByteArray("http://allowed.example@evil.example/") << none << "user information";
        QTest::newRow("CONNECT empty host") << connect << QByteArray(":443") << none << "empty";
        QTest::newRow("absolute empty host") << get << QByteArray("http:///path") << none << "empty";
        QTest::newRow("absolute empty host with port") << get << QByteArray("http://:80/") << none << "empty";
        QTest::newRow("absolute empty port") << get << QByteArray("http://example.com:/") << none << "empty";
        QTest::newRow("host is only the root") << connect << QByteArray(".:443") << none << "root";
        QTest::newRow("percent-encoded host") << get << QByteArray("http://ex%61mple.com/") << none << "percent";
        QTest::newRow("percent-encoded dot") << connect << QByteArray("evil%2ecom:443") << none << "percent";
        QTest::newRow("space in target") << get << QByteArray("http://example.com/a b") << none << "whitespace";
        QTest::newRow("tab in host") << connect << QByteArray("exa\tmple.com:443") << none << "whitespace";
        QTest::newRow("CRLF injection") << get << QByteArray("http://a.example/\r\nHost: evil") << none << "whitespace";
        QTest::newRow("NUL in host") << connect << QByteArray("allowed.example\0.evil:443", 25) << none << "control";
        QTest::newRow("DEL") << connect << QByteArray("a\x7f.example:443") << none << "control";
        QTest::newRow("non-ASCII host") << connect << QByteArray("b\xc3\xbc" "cher.example:443") << none << "non-ASCII";
        QTest::newRow("escape sequence") << get << QByteArray("http://a.example/\x1b[2J") << none << "control";
        QTest::newRow("fragment") << get << QByteArray("http://example.com/#top") << none << "fragment";
        QTest::newRow("fragment hiding the host") << get << QByteArray("http://evil.example#@allowed.example/") << none << "fragment";
        QTest::newRow("backslash in host") << get << QByteArray("http://evil.example\\@allowed.example/") << none << "user information";
        QTest::newRow("punctuation in host") << connect << QByteArray("ex!ample.com:443") << none << "only letters";
        QTest::newRow("comma in host") << connect << QByteArray("a.example,b.example:443") << none << "only letters";
        QTest::newRow("empty label") << connect << QByteArray("a..example:443") << none << "empty label";
        QTest::newRow("leading dot") << connect << QByteArray(".example.com:443") << none << "empty label";
        QTest::newRow("two trailing dots") << connect << QByteArray("example.com..:443") << none << "empty label";
        QTest::newRow("label of 64") << connect << QByteArray(QByteArray(64, 'a') + ".example:443") << none << "63";
        QTest::newRow("unbracketed IPv6") << connect << QByteArray("::1:443") << none << "brackets";
        QTest::newRow("IPv6 without closing bracket") << connect << QByteArray("[::1:443") << none << "closing bracket";
        QTest::newRow("text after IPv6") << connect << QByteArray("[::1]x:443") << none << "after the IPv6";
        QTest::newRow("IPv6 zone") << connect << QByteArray("[fe80::1%25eth0]:443") << none << "zone";
        QTest::newRow("IPvFuture") << connect << QByteArray("[v1.fe80::a]:443") << none << "IPvFuture";
        QTest::newRow("name in brackets") << connect << QByteArray("[example.com]:443") << none << "not an IPv6";
        QTest::newRow("empty brackets") << connect << QByteArray("[]:443") << none << "not an IPv6";
        QTest::newRow("IPv6 too many groups") << connect << QByteArray("[1:2:3:4:5:6:7:8:9]:443") << none << "not an IPv6";
        QTest::newRow("two Host headers") << get << QByteArray("http://example.com/")
            << QByteArrayList{"example.com", "example.com"} << "more than one Host";
        QTest::newRow("Host names another host") << get << QByteArray("http://allowed.example/")
            << QByteArrayList{"evil.example"} << "different destination";
        QTest::newRow("Host names another port") << get << QByteArray("http://allowed.example/")
            << QByteArrayList{"allowed.example:8080"} << "different destination";
        QTest::newRow("Host omits a non-default port") << get << QByteArray("http://allowed.example:8080/")
            << QByteArrayList{"allowed.example"} << "different destination";
        QTest::newRow("Host spells the address differently") << get << QByteArray("http://127.0.0.1/")
            << QByteArrayList{"127.1"} << "different destination";
        QTest::newRow("CONNECT Host names another host") << connect << QByteArray("allowed.example:443")
            << QByteArrayList{"evil.example:443"} << "different destination";
        QTest::newRow("CONNECT Host names another port") << connect << QByteArray("allowed.example:443")
            << QByteArrayList{"allowed.example:22"} << "different destination";
        QTest::newRow("empty Host") << get << QByteArray("http://a.example/") << QByteArrayList{""} << "Host header is invalid";
        QTest::newRow("Host with userinfo") << get << QByteArray("http://a.example/")
            << QByteArrayList{"u@a.example"} << "Host header is invalid";
        QTest::newRow("Host with a space inside") << get << QByteArray("http://a.example/")
            << QByteArrayList{"a.example evil.example"} << "Host header is invalid";
        QTest::newRow("Host with a control byte") << get << QByteArray("http://a.example/")
            << QByteArrayList{QByteArray("a.example\r\n")} << "Host header is invalid";
        QTest::newRow("empty method") << QByteArray() << QByteArray("http://a.example/") << none << "method";
        QTest::newRow("space in method") << QByteArray("GE T") << QByteArray("http://a.example/") << none << "method";
        QTest::newRow("control byte in method") << QByteArray("GET\x01") << QByteArray("http://a.example/") << none << "method";
        QTest::newRow("long method") << QByteArray(65, 'G') << QByteArray("http://a.example/") << none << "method";
    }

    void refusesWhatIsAmbiguousOrMalformed()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, target);
        QFETCH(QByteArrayList, hosts);
        QFETCH(QString, why);

        const auto parsed = parse(method, target, hosts);
        QVERIFY2(!parsed.ok(), qPrintable("accepted as " + QString::fromStdString(parsed.ok() ? parsed->authority() : "")));
        const QString what = QString::fromStdString(parsed.error().what);
        QVERIFY2(what.contains(why), qPrintable(what));
        QVERIFY(!parsed.error().hint.empty());
        QCOMPARE(parsed.error().errnum, 0);
        // The agent's bytes reach a terminal through this message: nothing
        // in it may be a control character.
        for (const QChar c : what) {
            QVERIFY2(c.unicode() >= 0x20 && c.unicode() < 0x7f, qPrintable(what));
        }
    }

    void targetIsBoundedAtEightKiB()
    {
        const std::string prefix = "http://a.example/";
        const std::string atLimit = prefix + std::string(RequestTarget::kMaxTargetLength - prefix.size(), 'x');
        const auto accepted = RequestTarget::parse("GET", atLimit, {});
        QVERIFY(accepted.ok());
        QCOMPARE(accepted->path().size(), RequestTarget::kMaxTargetLength - prefix.size() + 1);

        const auto refused = RequestTarget::parse("GET", atLimit + "x", {});
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().what.find("8 KiB") != std::string::npos);
        // The message quotes the start of the target, not all 8 KiB of it.
        QVERIFY(refused.error().message().size() < 600);
    }

    void hostIsBoundedAt253()
    {
        // 63+1+63+1+63+1+61 = 253
        const std::string host = std::string(63, 'a') + "." + std::string(63, 'b') + "." + std::string(63, 'c') + "." + std::string(61, 'd');
        QCOMPARE(host.size(), size_t(253));
        const auto accepted = RequestTarget::parse("CONNECT", host + ":443", {});
        QVERIFY2(accepted.ok(), accepted.ok() ? "" : accepted.error().message().c_str());
        QCOMPARE(accepted->host(), host);
        QVERIFY(RequestTarget::parse("CONNECT", host + ".:443", {}).ok());

        const auto refused = RequestTarget::parse("CONNECT", host + "d:443", {});
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().what.find("253") != std::string::npos);
        QVERIFY(!RequestTarget::parse("CONNECT", std::string(100000, 'a') + ":443", {}).ok());
    }

    void originFormExposesOnlyThePath_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<bool>("accepted");

        QTest::newRow("API path") << QByteArray("/v1/models") << true;
        QTest::newRow("path and query") << QByteArray("/v1/chat?stream=true") << true;
        QTest::newRow("root") << QByteArray("/") << true;
        QTest::newRow("absolute-form is not origin-form") << QByteArray("http://a.example/v1") << false;
        QTest::newRow("authority-form is not origin-form") << QByteArray("a.example:443") << false;
        QTest::newRow("fragment") << QByteArray("/v1#x") << false;
        QTest::newRow("space") << QByteArray("/v1 HTTP/1.1") << false;
        QTest::newRow("empty") << QByteArray() << false;
    }

    void originFormExposesOnlyThePath()
    {
        QFETCH(QByteArray, target);
        QFETCH(bool, accepted);

        const auto parsed = RequestTarget::parseOriginForm("GET", toStd(target));
        QCOMPARE(parsed.ok(), accepted);
        if (accepted) {
            QCOMPARE(parsed->kind(), Kind::Origin);
            QCOMPARE(parsed->path(), toStd(target));
            QVERIFY(parsed->host().empty());
            QCOMPARE(int(parsed->port()), 0);
            QVERIFY(parsed->authority().empty());
        }
    }

    void parseHostSharesTheRules_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("hostKind");

        QTest::newRow("name") << QByteArray("Api.Example.COM") << "api.example.com" << int(HostKind::Name);
        QTest::newRow("IPv4") << QByteArray("192.168.0.1") << "192.168.0.1" << int(HostKind::Ipv4);
        QTest::newRow("hex label ends in a number") << QByteArray("a.0x") << "a.0x" << int(HostKind::Ipv4);
        QTest::newRow("0xg is a name") << QByteArray("a.0xg") << "a.0xg" << int(HostKind::Name);
        QTest::newRow("IPv6") << QByteArray("[::]") << "::" << int(HostKind::Ipv6);
        QTest::newRow("with a port is refused") << QByteArray("a.example:443") << "" << -1;
        QTest::newRow("userinfo is refused") << QByteArray("u@a.example") << "" << -1;
    }

    void parseHostSharesTheRules()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, host);
        QFETCH(int, hostKind);

        const auto parsed = RequestTarget::parseHost(toStd(text));
        QCOMPARE(parsed.ok(), hostKind >= 0);
        if (parsed.ok()) {
            QCOMPARE(QString::fromStdString(parsed->text), host);
            QCOMPARE(int(parsed->kind), hostKind);
        }
    }
};

QTEST_GUILESS_MAIN(RequestTargetParsing)
#include "tst_request_target_parsing.moc"
