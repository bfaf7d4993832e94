// SPDX-License-Identifier: Apache-2.0
// TlsClientHello reads the server name from the first bytes a client sends
// into a tunnel. Those bytes are the agent's: a hello naming another server
// than the tunnel's destination is domain fronting, and a hello the reader
// cannot read whole must be refused rather than waved through.
#include "egress/tls_client_hello.h"

#include "client_hello_builder.h"

#include <QTest>

using moat::TlsClientHello;
using Outcome = TlsClientHello::Outcome;
using namespace client_hello;

Q_DECLARE_METATYPE(Outcome)

namespace {

std::span<const std::uint8_t> bytesOf(const QByteArray& bytes)
{
    return {reinterpret_cast<const std::uint8_t*>(bytes.constData()), static_cast<size_t>(bytes.size())};
}

}  // namespace

class TlsClientHelloTest : public QObject {
    Q_OBJECT

private slots:
    void reads_data();
    void reads();
    void everyPrefixOfAHelloNeedsMoreBytes();
    void bytesAfterTheFirstRecordAreNotRead();
};

void TlsClientHelloTest::reads_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<Outcome>("outcome");
    QTest::addColumn<bool>("hasName");
    QTest::addColumn<QByteArray>("name");

    QTest::newRow("server name") << withServerName("example.com") << Outcome::Complete << true
                                 << QByteArray("example.com");
    QTest::newRow("no extensions") << record(handshake(helloBody({}, false))) << Outcome::Complete << false
                                   << QByteArray();
    QTest::newRow("extensions without server_name")
        << record(handshake(helloBody({extension(0x000a, u16(2) + u16(0x001d))}))) << Outcome::Complete << false
        << QByteArray();
    QTest::newRow("unknown name type is skipped")
        << record(handshake(helloBody({extension(0, u16(4) + u8(7) + u16(1) + "x")}))) << Outcome::Complete << false
        << QByteArray();
    QTest::newRow("plain HTTP is not TLS") << QByteArray("GET / HTTP/1.1\r\n\r\n") << Outcome::NotTls << false
                                           << QByteArray();
    QTest::newRow("SSH is not TLS") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n") << Outcome::NotTls << false
                                    << QByteArray();
    QTest::newRow("empty") << QByteArray() << Outcome::NeedMoreBytes << false << QByteArray();

    // Refused: each could hide a name the reader did not see.
    QTest::newRow("two server_name extensions")
        << record(handshake(helloBody({serverNameExtension({"a.example"}), serverNameExtension({"b.example"})})))
        << Outcome::Malformed << false << QByteArray();
    QTest::newRow("two host names in one extension")
        << record(handshake(helloBody({serverNameExtension({"a.example", "b.example"})}))) << Outcome::Malformed
        << false << QByteArray();
    {
        // The hello announced longer than its record: continued in a second one.
        const QByteArray body = helloBody({serverNameExtension({"example.com"})});
        const QByteArray message = handshake(body);
        const QByteArray split = record(message.left(40)) + record(message.mid(40));
        QTest::newRow("hello split across records") << split << Outcome::Malformed << false << QByteArray();
    }
    QTest::newRow("not a ClientHello") << record(u8(2) + u24(4) + "abcd") << Outcome::Malformed << false
                                       << QByteArray();
    QTest::newRow("record too long") << (u8(0x16) + u16(0x0301) + u16(16385)) << Outcome::Malformed << false
                                     << QByteArray();
    QTest::newRow("empty record") << (u8(0x16) + u16(0x0301) + u16(0)) << Outcome::Malformed << false
                                  << QByteArray();
    QTest::newRow("unknown record version") << (u8(0x16) + u16(0x0201) + u16(4) + "abcd") << Outcome::Malformed
                                            << false << QByteArray();
    QTest::newRow("control byte in the name") << withServerName(QByteArray("evil\0.example", 13))
                                              << Outcome::Malformed << false << QByteArray();
    QTest::newRow("space in the name") << withServerName("a b.example") << Outcome::Malformed << false
                                       << QByteArray();
    QTest::newRow("empty name") << withServerName("") << Outcome::Malformed << false << QByteArray();
    QTest::newRow("name longer than 255") << withServerName(QByteArray(256, 'a')) << Outcome::Malformed << false
                                          << QByteArray();
    QTest::newRow("truncated cipher suites")
        << record(handshake(u16(0x0303) + QByteArray(32, 'r') + u8(0) + u16(4) + u16(0x1301)))
        << Outcome::Malformed << false << QByteArray();
    QTest::newRow("extension block longer than the hello")
        << record(handshake(helloBody({}, false) + u16(40) + extension(0x000a, u16(0)))) << Outcome::Malformed
        << false << QByteArray();
    QTest::newRow("bytes after the extension block")
        << record(handshake(helloBody({serverNameExtension({"example.com"})}) + "zz")) << Outcome::Malformed << false
        << QByteArray();
}

void TlsClientHelloTest::reads()
{
    QFETCH(QByteArray, bytes);
    QFETCH(Outcome, outcome);
    QFETCH(bool, hasName);
    QFETCH(QByteArray, name);

    const auto parsed = TlsClientHello::parse(bytesOf(bytes));
    QCOMPARE(parsed.outcome, outcome);
    QCOMPARE(parsed.hasServerName, hasName);
    QCOMPARE(QByteArray::fromStdString(parsed.serverName), name);
    QCOMPARE(parsed.problem.empty(), outcome != Outcome::Malformed);
}

void TlsClientHelloTest::everyPrefixOfAHelloNeedsMoreBytes()
{
    // However the agent's bytes are cut into TCP segments, nothing is
    // decided before the whole record is in.
    const QByteArray hello = withServerName("example.com");
    for (int length = 0; length < hello.size(); ++length) {
        QCOMPARE(TlsClientHello::parse(bytesOf(hello.left(length))).outcome, Outcome::NeedMoreBytes);
    }
}

void TlsClientHelloTest::bytesAfterTheFirstRecordAreNotRead()
{
    const QByteArray hello = withServerName("example.com") + QByteArray(100, '\xff');
    const auto parsed = TlsClientHello::parse(bytesOf(hello));
    QCOMPARE(parsed.outcome, Outcome::Complete);
    QCOMPARE(parsed.serverName, std::string("example.com"));
}

QTEST_APPLESS_MAIN(TlsClientHelloTest)
#include "tst_tls_client_hello.moc"
