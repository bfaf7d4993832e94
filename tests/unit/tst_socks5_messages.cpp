// SPDX-License-Identifier: Apache-2.0
// Socks5Messages reads what a SOCKS5 client sends before its data and builds
// moat's answers (RFC 1928). The client is the agent: only "no
// authentication" and CONNECT are served, a destination name follows the same
// rules as an HTTP target's host, and each parse decides from the bytes it has
// — need more, complete, refused with a reply code, or malformed — without
// reading past them.
#include "egress/socks5_messages.h"

#include <QTest>

#include <vector>

using moat::Socks5Messages;
using Outcome = Socks5Messages::Outcome;
using Reply = Socks5Messages::Reply;
using AddressType = Socks5Messages::AddressType;
using HostKind = moat::RequestTarget::HostKind;

Q_DECLARE_METATYPE(Outcome)
Q_DECLARE_METATYPE(Reply)

namespace {

std::span<const std::uint8_t> bytesOf(const QByteArray& bytes)
{
    return {reinterpret_cast<const std::uint8_t*>(bytes.constData()), static_cast<size_t>(bytes.size())};
}

QByteArray hex(const char* text) { return QByteArray::fromHex(text); }

// VER CMD RSV ATYP=3 LEN name PORT
QByteArray domainRequest(const QByteArray& name, quint16 port, char command = 1)
{
    QByteArray bytes;
    bytes += char(5);
    bytes += command;
    bytes += char(0);
    bytes += char(3);
    bytes += char(name.size());
    bytes += name;
    bytes += char(port >> 8);
    bytes += char(port & 0xff);
    return bytes;
}

}  // namespace

class Socks5MessagesTest : public QObject {
    Q_OBJECT

private slots:
    void greetingChoosesNoAuthentication_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<Outcome>("outcome");
        QTest::addColumn<int>("consumed");
        QTest::addColumn<int>("method");

        QTest::newRow("no authentication, as curl sends it") << hex("050100") << Outcome::Complete << 3 << 0x00;
        QTest::newRow("no authentication among others") << hex("0502020000") << Outcome::Complete << 4 << 0x00;
        QTest::newRow("no authentication offered last") << hex("050301020000") << Outcome::Complete << 5 << 0x00;
        QTest::newRow("username/password only") << hex("050102") << Outcome::Complete << 3 << 0xff;
        QTest::newRow("GSSAPI only") << hex("050101") << Outcome::Complete << 3 << 0xff;
        QTest::newRow("no methods at all") << hex("0500") << Outcome::Complete << 2 << 0xff;
        QTest::newRow("request pipelined after it") << hex("05010005010001") << Outcome::Complete << 3 << 0x00;
        QTest::newRow("nothing yet") << QByteArray() << Outcome::NeedMoreBytes << 0 << 0xff;
        QTest::newRow("version only") << hex("05") << Outcome::NeedMoreBytes << 0 << 0xff;
        QTest::newRow("methods missing") << hex("0503") << Outcome::NeedMoreBytes << 0 << 0xff;
        QTest::newRow("methods cut short") << hex("05030102") << Outcome::NeedMoreBytes << 0 << 0xff;
        QTest::newRow("SOCKS4") << hex("0401005001020304") << Outcome::Malformed << 0 << 0xff;
        QTest::newRow("HTTP on the SOCKS port") << QByteArray("GET / HTTP/1.1\r\n") << Outcome::Malformed << 0 << 0xff;
        QTest::newRow("TLS on the SOCKS port") << hex("160301") << Outcome::Malformed << 0 << 0xff;

        QByteArray all = hex("05ff");
        for (int method = 1; method <= 255; ++method) {
            all += char(method == 255 ? 0 : method);
        }
        QTest::newRow("255 methods, no authentication last") << all << Outcome::Complete << 257 << 0x00;
    }

    void greetingChoosesNoAuthentication()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(Outcome, outcome);
        QFETCH(int, consumed);
        QFETCH(int, method);

        const auto greeting = Socks5Messages::parseGreeting(bytesOf(bytes));
        QCOMPARE(greeting.outcome, outcome);
        QCOMPARE(int(greeting.consumed), consumed);
        if (outcome == Outcome::Complete) {
            QCOMPARE(int(greeting.method), method);
            const auto reply = Socks5Messages::greetingReply(greeting.method);
            QCOMPARE(int(reply[0]), 5);
            QCOMPARE(int(reply[1]), method);
        }
        if (outcome == Outcome::Malformed) {
            QVERIFY(!greeting.problem.empty());
        }
    }

    void socks4IsNamedInTheProblem()
    {
        const auto greeting = Socks5Messages::parseGreeting(bytesOf(hex("04010050")));
        QVERIFY(greeting.problem.find("SOCKS4") != std::string::npos);
    }

    void connectRequestIsReadOrRefused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<Outcome>("outcome");
        QTest::addColumn<int>("consumed");
        QTest::addColumn<Reply>("refusal");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("hostKind");
        QTest::addColumn<int>("port");

        const Reply none = Reply::GeneralFailure;
        const int name = int(HostKind::Name);
        const int v4 = int(HostKind::Ipv4);
        const int v6 = int(HostKind::Ipv6);

        QTest::newRow("IPv4") << hex("050100017f00000101bb") << Outcome::Complete << 10 << none << "127.0.0.1" << v4 << 443;
        QTest::newRow("domain, as socks5h:// sends it") << domainRequest("example.com", 80) << Outcome::Complete << 18 << none
            << "example.com" << name << 80;
        QTest::newRow("domain lower-cased, root dot removed") << domainRequest("GitHub.COM.", 443) << Outcome::Complete << 18 << none
            << "github.com" << name << 443;
        QTest::newRow("address written as a name stays an address") << domainRequest("127.1", 22) << Outcome::Complete << 12 << none
            << "127.1" << v4 << 22;
        QTest::newRow("IPv6") << hex("0501000400000000000000000000000000000001" "0016") << Outcome::Complete << 22 << none
            << "::1" << v6 << 22;
        QTest::newRow("IPv4-mapped IPv6") << hex("05010004" "00000000000000000000ffff0a000001" "0050") << Outcome::Complete << 22
            << none << "::ffff:10.0.0.1" << v6 << 80;
        QTest::newRow("port 65535") << hex("0501000101020304ffff") << Outcome::Complete << 10 << none << "1.2.3.4" << v4 << 65535;
        QTest::newRow("data pipelined after it") << hex("050100017f00000101bb" "474554") << Outcome::Complete << 10 << none
            << "127.0.0.1" << v4 << 443;
        const QByteArray longest = QByteArray(63, 'a') + '.' + QByteArray(63, 'b') + '.' + QByteArray(63, 'c') + '.' + QByteArray(61, 'd');
        QTest::newRow("253-byte name") << domainRequest(longest, 443) << Outcome::Complete << 4 + 1 + 253 + 2 << none
            << QString::fromLatin1(longest) << name << 443;

        QTest::newRow("nothing yet") << QByteArray() << Outcome::NeedMoreBytes << 0 << none << "" << 0 << 0;
        QTest::newRow("header cut short") << hex("050100") << Outcome::NeedMoreBytes << 0 << none << "" << 0 << 0;
        QTest::newRow("IPv4 cut short") << hex("050100017f000001") << Outcome::NeedMoreBytes << 0 << none << "" << 0 << 0;
        QTest::newRow("name length missing") << hex("05010003") << Outcome::NeedMoreBytes << 0 << none << "" << 0 << 0;
        QTest::newRow("name cut short") << hex("050100030b6578616d") << Outcome::NeedMoreBytes << 0 << none << "" << 0 << 0;
        QTest::newRow("port cut short") << domainRequest("a.example", 443).chopped(1) << Outcome::NeedMoreBytes << 0 << none << "" << 0 << 0;

        QTest::newRow("BIND") << hex("050200017f0000010050") << Outcome::Refused << 0 << Reply::CommandNotSupported << "" << 0 << 0;
        QTest::newRow("UDP ASSOCIATE, refused at its second byte") << hex("0503") << Outcome::Refused << 0
            << Reply::CommandNotSupported << "" << 0 << 0;
        QTest::newRow("command 0") << hex("0500000100000000") << Outcome::Refused << 0 << Reply::CommandNotSupported << "" << 0 << 0;
        QTest::newRow("command 255") << hex("05ff") << Outcome::Refused << 0 << Reply::CommandNotSupported << "" << 0 << 0;
        QTest::newRow("address type 0") << hex("05010000") << Outcome::Refused << 0 << Reply::AddressTypeNotSupported << "" << 0 << 0;
        QTest::newRow("address type 2") << hex("0501000201020304") << Outcome::Refused << 0 << Reply::AddressTypeNotSupported << "" << 0 << 0;
        QTest::newRow("address type 255") << hex("050100ff") << Outcome::Refused << 0 << Reply::AddressTypeNotSupported << "" << 0 << 0;
        QTest::newRow("port 0") << hex("05010001010203040000") << Outcome::Refused << 0 << Reply::HostUnreachable << "" << 0 << 0;
        QTest::newRow("NUL in the name") << domainRequest(QByteArray("allowed.example\0.evil", 21), 443) << Outcome::Refused << 0
            << Reply::HostUnreachable << "" << 0 << 0;
        QTest::newRow("space in the name") << domainRequest("a example", 443) << Outcome::Refused << 0 << Reply::HostUnreachable << "" << 0 << 0;
        QTest::newRow("percent in the name") << domainRequest("ex%61mple.com", 443) << Outcome::Refused << 0
            << Reply::HostUnreachable << "" << 0 << 0;
        QTest::newRow("userinfo in the name") << domainRequest("u@a.example", 443) << Outcome::Refused << 0
            << Reply::HostUnreachable << "" << 0 << 0;
        QTest::newRow("port in the name") << domainRequest("a.example:22", 443) << Outcome::Refused << 0
            << Reply::HostUnreachable << "" << 0 << 0;
        QTest::newRow("IPv6 in brackets as a name") << domainRequest("[::1]", 443) << Outcome::Refused << 0
            << Reply::HostUnreachable << "" << 0 << 0;
        QTest::newRow("only the root") << domainRequest(".", 443) << Outcome::Refused << 0 << Reply::HostUnreachable << "" << 0 << 0;
        QTest::newRow("escape sequence in the name") << domainRequest("\x1b[2Ja.example", 443) << Outcome::Refused << 0
            << Reply::HostUnreachable << "" << 0 << 0;
        QTest::newRow("255-byte name") << domainRequest(QByteArray(255, 'a'), 443) << Outcome::Refused << 0
            << Reply::HostUnreachable << "" << 0 << 0;

        QTest::newRow("version 4") << hex("040100017f0000010050") << Outcome::Malformed << 0 << none << "" << 0 << 0;
        QTest::newRow("reserved byte set") << hex("050101017f0000010050") << Outcome::Malformed << 0 << none << "" << 0 << 0;
        QTest::newRow("empty name") << hex("05010003000050") << Outcome::Malformed << 0 << none << "" << 0 << 0;
    }

    void connectRequestIsReadOrRefused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(Outcome, outcome);
        QFETCH(int, consumed);
        QFETCH(Reply, refusal);
        QFETCH(QString, host);
        QFETCH(int, hostKind);
        QFETCH(int, port);

        const auto request = Socks5Messages::parseConnectRequest(bytesOf(bytes));
        QVERIFY2(request.outcome == outcome, request.problem.c_str());
        QCOMPARE(int(request.consumed), consumed);
        switch (outcome) {
        case Outcome::Complete:
            QCOMPARE(QString::fromStdString(request.host.text), host);
            QCOMPARE(int(request.host.kind), hostKind);
            QCOMPARE(int(request.port), port);
            break;
        case Outcome::Refused:
            QCOMPARE(request.refusal, refusal);
            QVERIFY(!request.problem.empty());
            QVERIFY(request.host.text.empty());
            break;
        case Outcome::Malformed:
            QVERIFY(!request.problem.empty());
            break;
        case Outcome::NeedMoreBytes:
            break;
        }
    }

    // A client may send its request one byte at a time: every proper prefix
    // of a whole message asks for more, and the whole one is read the same
    // however it arrived.
    void everyPrefixOfAWholeMessageNeedsMore_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<bool>("isGreeting");

        QTest::newRow("greeting") << hex("0503000102") << true;
        QTest::newRow("IPv4 request") << hex("050100010a00000101bb") << false;
        QTest::newRow("IPv6 request") << hex("0501000420010db8000000000000000000000001" "01bb") << false;
        QTest::newRow("domain request") << domainRequest("pypi.org", 443) << false;
    }

    void everyPrefixOfAWholeMessageNeedsMore()
    {
        QFETCH(QByteArray, message);
        QFETCH(bool, isGreeting);

        const auto outcome = [&](qsizetype length) {
            const auto prefix = bytesOf(message).first(static_cast<size_t>(length));
            return isGreeting ? Socks5Messages::parseGreeting(prefix).outcome : Socks5Messages::parseConnectRequest(prefix).outcome;
        };
        for (qsizetype length = 0; length < message.size(); ++length) {
            QVERIFY2(outcome(length) == Outcome::NeedMoreBytes, qPrintable(QString::number(length)));
        }
        QCOMPARE(outcome(message.size()), Outcome::Complete);
    }

    void repliesAreTenBytesWithAnEmptyBoundAddress_data()
    {
        QTest::addColumn<Reply>("code");
        QTest::addColumn<QByteArray>("bytes");

        QTest::newRow("succeeded") << Reply::Succeeded << hex("05000001000000000000");
        QTest::newRow("general failure") << Reply::GeneralFailure << hex("05010001000000000000");
        QTest::newRow("not allowed by ruleset") << Reply::NotAllowedByRuleset << hex("05020001000000000000");
        QTest::newRow("host unreachable") << Reply::HostUnreachable << hex("05040001000000000000");
        QTest::newRow("connection refused") << Reply::ConnectionRefused << hex("05050001000000000000");
        QTest::newRow("command not supported") << Reply::CommandNotSupported << hex("05070001000000000000");
        QTest::newRow("address type not supported") << Reply::AddressTypeNotSupported << hex("05080001000000000000");
    }

    void repliesAreTenBytesWithAnEmptyBoundAddress()
    {
        QFETCH(Reply, code);
        QFETCH(QByteArray, bytes);

        const auto reply = Socks5Messages::reply(code);
        QCOMPARE(QByteArray(reinterpret_cast<const char*>(reply.data()), qsizetype(reply.size())).toHex(), bytes.toHex());
    }

    void greetingRepliesAreTwoBytes()
    {
        QCOMPARE(Socks5Messages::greetingReply(Socks5Messages::kNoAuthentication), (std::array<std::uint8_t, 2>{5, 0}));
        QCOMPARE(Socks5Messages::greetingReply(Socks5Messages::kNoAcceptableMethod), (std::array<std::uint8_t, 2>{5, 0xff}));
    }

    // A proxy may cap its buffer at kMaxMessageLength: the longest request
    // (a 255-byte name) fits exactly.
    void longestMessageFitsTheCap()
    {
        const QByteArray longest = domainRequest(QByteArray(255, 'a'), 443);
        QCOMPARE(size_t(longest.size()), Socks5Messages::kMaxMessageLength);
        QCOMPARE(Socks5Messages::parseConnectRequest(bytesOf(longest)).outcome, Outcome::Refused);
        QVERIFY(size_t(2 + 255) <= Socks5Messages::kMaxMessageLength);
    }
};

QTEST_GUILESS_MAIN(Socks5MessagesTest)
#include "tst_socks5_messages.moc"
