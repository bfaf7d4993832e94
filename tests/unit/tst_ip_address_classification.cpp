// SPDX-License-Identifier: Apache-2.0
// IpAddress is how the egress proxy sees through an address in disguise: every
// spelling a resolver or an HTTP client reads as an address must parse here to
// the same canonical address, and every address that is not public unicast
// must say so, including through the IPv6 forms that carry an IPv4 address.
#include "egress/ip_address.h"

#include <QTest>

#include <arpa/inet.h>

using moat::AddressClass;
using moat::IpAddress;

namespace {

QString errorOf(const moat::Result<IpAddress>& parsed)
{
    return parsed.ok() ? QString() : QString::fromStdString(parsed.error().message());
}

uint32_t classMask(std::initializer_list<AddressClass> classes)
{
    uint32_t mask = 0;
    for (AddressClass c : classes) {
        mask |= static_cast<uint32_t>(c);
    }
    return mask;
}

}  // namespace

class IpAddressClassification : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryIpv4Spelling_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");

        QTest::newRow("dotted quad") << "127.0.0.1" << "127.0.0.1";
        QTest::newRow("two parts") << "127.1" << "127.0.0.1";
        QTest::newRow("three parts") << "10.1.258" << "10.1.1.2";
        QTest::newRow("one decimal number") << "2130706433" << "127.0.0.1";
        QTest::newRow("one hex number") << "0x7f000001" << "127.0.0.1";
        QTest::newRow("one hex number, upper case") << "0X7F000001" << "127.0.0.1";
        QTest::newRow("one octal number") << "017700000001" << "127.0.0.1";
        QTest::newRow("hex first part") << "0x7f.0.0.1" << "127.0.0.1";
        QTest::newRow("octal parts") << "0177.0.0.01" << "127.0.0.1";
        QTest::newRow("hex, two parts") << "0x7f.1" << "127.0.0.1";
        QTest::newRow("mixed bases") << "0x7f.0.00.0x1" << "127.0.0.1";
        QTest::newRow("padded decimal is octal zero") << "127.000.000.001" << "127.0.0.1";
        QTest::newRow("bare 0x is zero") << "0x.0.0.1" << "0.0.0.1";
        QTest::newRow("zero") << "0" << "0.0.0.0";
        QTest::newRow("all zeros") << "0.0.0.0" << "0.0.0.0";
        QTest::newRow("metadata in decimal") << "2852039166" << "169.254.169.254";
        QTest::newRow("metadata in hex") << "0xa9fea9fe" << "169.254.169.254";
        QTest::newRow("metadata, hex parts") << "0xa9.0xfe.0xa9.0xfe" << "169.254.169.254";
        QTest::newRow("metadata, octal parts") << "0251.0376.0251.0376" << "169.254.169.254";
        QTest::newRow("metadata, 16-bit tail") << "169.254.43518" << "169.254.169.254";
        QTest::newRow("trailing dot, as URLs allow") << "127.0.0.1." << "127.0.0.1";
        QTest::newRow("broadcast") << "4294967295" << "255.255.255.255";
        QTest::newRow("public") << "8.8.8.8" << "8.8.8.8";
    }

    void parsesEveryIpv4Spelling()
    {
        QFETCH(QString, text);
        QFETCH(QString, canonical);

        const auto parsed = IpAddress::parse(text.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(errorOf(parsed)));
        QVERIFY(parsed->isV4());
        QCOMPARE(QString::fromStdString(parsed->toString()), canonical);
    }

    // glibc's inet_aton is what getaddrinfo and many clients use; wherever it
    // reads an address, the parser must read the same one.
    void agreesWithInetAton_data() { parsesEveryIpv4Spelling_data(); }

    void agreesWithInetAton()
    {
        QFETCH(QString, text);
        // Two spellings only the URL standard reads as addresses; they must
        // still be seen as addresses, or a browser-like client would dial one.
        if (text.endsWith('.') || text.startsWith("0x.")) {
            QSKIP("inet_aton refuses this spelling; the URL standard accepts it");
        }
        in_addr expected{};
        QVERIFY(inet_aton(text.toLatin1().constData(), &expected) == 1);
        const auto parsed = IpAddress::parse(text.toStdString());
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->v4(), ntohl(expected.s_addr));
    }

    void parsesEveryIpv6Spelling_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");

        QTest::newRow("loopback") << "::1" << "::1";
        QTest::newRow("bracketed loopback") << "[::1]" << "::1";
        QTest::newRow("unspecified") << "::" << "::";
        QTest::newRow("bracketed unspecified") << "[::]" << "::";
        QTest::newRow("full form") << "2001:0db8:0000:0000:0000:0000:0000:0001" << "2001:db8::1";
        QTest::newRow("upper case") << "2001:DB8::A" << "2001:db8::a";
        QTest::newRow("longest zero run wins") << "2001:0:0:1:0:0:0:1" << "2001:0:0:1::1";
        QTest::newRow("first run wins a tie") << "2001:db8:0:0:1:0:0:1" << "2001:db8::1:0:0:1";
        QTest::newRow("single zero group not compressed") << "2001:db8:0:1:1:1:1:1" << "2001:db8:0:1:1:1:1:1";
        QTest::newRow("trailing compression") << "fe80::" << "fe80::";
        QTest::newRow("mapped, dotted") << "::ffff:127.0.0.1" << "::ffff:127.0.0.1";
        QTest::newRow("mapped, hex") << "::ffff:7f00:1" << "::ffff:127.0.0.1";
        QTest::newRow("mapped, bracketed hex") << "[::ffff:7f00:1]" << "::ffff:127.0.0.1";
        QTest::newRow("mapped, full form") << "0:0:0:0:0:ffff:7f00:1" << "::ffff:127.0.0.1";
        QTest::newRow("compatible, dotted") << "::127.0.0.1" << "::7f00:1";
        QTest::newRow("NAT64") << "64:ff9b::169.254.169.254" << "64:ff9b::a9fe:a9fe";
        QTest::newRow("zone kept apart") << "fe80::1%eth0" << "fe80::1%eth0";
        QTest::newRow("zone in brackets") << "[fe80::1%eth0]" << "fe80::1%eth0";
        QTest::newRow("eight groups") << "1:2:3:4:5:6:7:8" << "1:2:3:4:5:6:7:8";
        QTest::newRow("six groups and a quad") << "1:2:3:4:5:6:1.2.3.4" << "1:2:3:4:5:6:102:304";
    }

    void parsesEveryIpv6Spelling()
    {
        QFETCH(QString, text);
        QFETCH(QString, canonical);

        const auto parsed = IpAddress::parse(text.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(errorOf(parsed)));
        QVERIFY(!parsed->isV4());
        QCOMPARE(QString::fromStdString(parsed->toString()), canonical);
        // The canonical text parses back to the same address.
        const auto again = IpAddress::parse(parsed->toString());
        QVERIFY(again.ok());
        QCOMPARE(again.value(), parsed.value());
        if (!text.contains('%') && !text.startsWith('[')) {
            in6_addr expected{};
            QVERIFY(inet_pton(AF_INET6, text.toLatin1().constData(), &expected) == 1);
            QVERIFY(std::equal(parsed->bytes().begin(), parsed->bytes().end(), expected.s6_addr));
        }
    }

    void keepsTheZoneApart()
    {
        const auto zoned = IpAddress::parse("fe80::1%eth0");
        QVERIFY(zoned.ok());
        QCOMPARE(zoned->zone(), std::string("eth0"));
        const auto plain = IpAddress::parse("fe80::1");
        QCOMPARE(zoned->bytes(), plain->bytes());
        QVERIFY(!zoned->sameAddress(plain.value()));
    }

    void mappedIsTheSameMachine()
    {
        const auto v4 = IpAddress::parse("203.0.113.7");
        const auto mapped = IpAddress::parse("::ffff:203.0.113.7");
        QVERIFY(v4->sameAddress(mapped.value()));
        QVERIFY(!(v4.value() == mapped.value()));  // but it was written as IPv6
    }

    void rejectsWhatIsNotAnAddress_data()
    {
        QTest::addColumn<QString>("text");

        QTest::newRow("empty") << "";
        QTest::newRow("part over 255") << "256.0.0.1";
        QTest::newRow("last part too big for three parts") << "1.2.65536";
        QTest::newRow("over 32 bits") << "4294967296";
        QTest::newRow("huge") << "99999999999999999999999";
        QTest::newRow("five parts") << "1.2.3.4.5";
        QTest::newRow("empty part") << "1..2.3";
        QTest::newRow("leading dot") << ".1.2.3";
        QTest::newRow("two trailing dots") << "1.2.3.4..";
        QTest::newRow("octal with 8") << "08.0.0.1";
        QTest::newRow("octal with 9") << "1.2.3.09";
        QTest::newRow("bad hex") << "0xg.0.0.1";
        QTest::newRow("sign") << "+1.2.3.4";
        QTest::newRow("negative") << "-1";
        QTest::newRow("leading space") << " 127.0.0.1";
        QTest::newRow("trailing space") << "127.0.0.1 ";
        QTest::newRow("trailing newline") << "127.0.0.1\n";
        QTest::newRow("percent-encoded") << "%31%32%37.0.0.1";
        QTest::newRow("a name") << "example.com";
        QTest::newRow("a numeric-looking name") << "1.2.3.4.nip.io";
        QTest::newRow("IPv4 in brackets") << "[127.0.0.1]";
        QTest::newRow("unclosed bracket") << "[::1";
        QTest::newRow("three colons") << ":::";
        QTest::newRow("two compressions") << "1::2::3";
        QTest::newRow("leading single colon") << ":1::2";
        QTest::newRow("trailing single colon") << "1::2:";
        QTest::newRow("nine groups") << "1:2:3:4:5:6:7:8:9";
        QTest::newRow("seven groups, no compression") << "1:2:3:4:5:6:7";
        QTest::newRow("eight groups and a compression") << "1:2:3:4::5:6:7:8";
        QTest::newRow("group of five digits") << "12345::1";
        QTest::newRow("quad not last") << "::1.2.3.4:1";
        QTest::newRow("octal quad inside IPv6") << "::ffff:0177.0.0.1";
        QTest::newRow("short quad inside IPv6") << "::ffff:127.1";
        QTest::newRow("empty zone") << "fe80::1%";
        QTest::newRow("zone with a slash") << "fe80::1%eth0/x";
        QTest::newRow("zone with a space") << "fe80::1%eth 0";
        QTest::newRow("non-ASCII digits") << "\xef\xbc\x91\xef\xbc\x92\xef\xbc\x97.0.0.1";
    }

    void rejectsWhatIsNotAnAddress()
    {
        QFETCH(QString, text);

        const auto parsed = IpAddress::parse(text.toStdString());
        QVERIFY2(!parsed.ok(), qPrintable("accepted as " + QString::fromStdString(parsed.ok() ? parsed->toString() : "")));
        QVERIFY(!parsed.error().what.empty());
        QVERIFY(!parsed.error().hint.empty());
    }

    void classifiesByBlock_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<uint>("mustHave");
        QTest::addColumn<QString>("described");

        auto row = [](const char* name, const char* text, std::initializer_list<AddressClass> classes,
                      const char* described) {
            QTest::newRow(name) << text << classMask(classes) << described;
        };
        row("loopback", "127.0.0.1", {AddressClass::Loopback}, "loopback");
        row("loopback, far end", "127.255.255.254", {AddressClass::Loopback}, "loopback");
        row("IPv6 loopback", "::1", {AddressClass::Loopback}, "loopback");
        row("0.0.0.0", "0.0.0.0", {AddressClass::Unspecified}, "unspecified");
        row("0/8", "0.1.2.3", {AddressClass::Unspecified}, "unspecified");
        row("::", "::", {AddressClass::Unspecified}, "unspecified");
        row("10/8", "10.20.30.40", {AddressClass::Private}, "private");
        row("172.16/12 low", "172.16.0.1", {AddressClass::Private}, "private");
        row("172.16/12 high", "172.31.255.255", {AddressClass::Private}, "private");
        row("192.168/16", "192.168.1.1", {AddressClass::Private}, "private");
        row("fc00::/7", "fd12:3456::1", {AddressClass::Private}, "private");
        row("site-local", "fec0::1", {AddressClass::Private}, "private");
        row("169.254/16", "169.254.1.1", {AddressClass::LinkLocal}, "link-local");
        row("fe80::/10", "fe80::1", {AddressClass::LinkLocal}, "link-local");
        row("fe80::/10 far end", "febf::1", {AddressClass::LinkLocal}, "link-local");
        row("CGNAT", "100.64.0.1", {AddressClass::Cgnat}, "carrier-grade NAT");
        row("CGNAT far end", "100.127.255.255", {AddressClass::Cgnat}, "carrier-grade NAT");
        row("multicast", "224.0.0.1", {AddressClass::Multicast}, "multicast");
        row("multicast far end", "239.255.255.255", {AddressClass::Multicast}, "multicast");
        row("IPv6 multicast", "ff02::1", {AddressClass::Multicast}, "multicast");
        row("broadcast", "255.255.255.255", {AddressClass::Broadcast, AddressClass::Reserved}, "broadcast");
        row("AWS, GCP, Azure metadata", "169.254.169.254", {AddressClass::CloudMetadata, AddressClass::LinkLocal},
            "cloud metadata");
        row("ECS task metadata", "169.254.170.2", {AddressClass::CloudMetadata}, "cloud metadata");
        row("AWS IPv6 metadata", "fd00:ec2::254", {AddressClass::CloudMetadata, AddressClass::Private},
            "cloud metadata");
        row("Alibaba metadata", "100.100.100.200", {AddressClass::CloudMetadata, AddressClass::Cgnat},
            "cloud metadata");
        row("Azure WireServer", "168.63.129.16", {AddressClass::CloudMetadata}, "cloud metadata");
        row("OpenStack IPv6 metadata", "fe80::a9fe:a9fe", {AddressClass::CloudMetadata}, "cloud metadata");
        row("metadata in decimal", "2852039166", {AddressClass::CloudMetadata}, "cloud metadata");
        row("192.0.0/24", "192.0.0.8", {AddressClass::Reserved}, "reserved");
        row("TEST-NET-1", "192.0.2.1", {AddressClass::Documentation}, "documentation");
        row("TEST-NET-2", "198.51.100.1", {AddressClass::Documentation}, "documentation");
        row("TEST-NET-3", "203.0.113.7", {AddressClass::Documentation}, "documentation");
        row("2001:db8::/32", "2001:db8::1", {AddressClass::Documentation}, "documentation");
        row("benchmarking", "198.19.255.255", {AddressClass::Benchmarking}, "benchmarking");
        row("240/4", "240.0.0.1", {AddressClass::Reserved}, "reserved");
        row("outside 2000::/3", "4000::1", {AddressClass::Reserved}, "reserved");
        row("discard-only", "100::1", {AddressClass::Reserved}, "reserved");
    }

    void classifiesByBlock()
    {
        QFETCH(QString, text);
        QFETCH(uint, mustHave);
        QFETCH(QString, described);

        const auto parsed = IpAddress::parse(text.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(errorOf(parsed)));
        QCOMPARE(parsed->classes() & mustHave, mustHave);
        QVERIFY(!parsed->isPublicUnicast());
        QCOMPARE(QString::fromStdString(parsed->describe()), described);
    }

    // Every IPv6 form that carries an IPv4 address is classified by that
    // address as well: a translator or tunnel would deliver to it.
    void seesThroughEmbeddedIpv4_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<uint>("mustHave");

        auto row = [](const char* name, const char* text, std::initializer_list<AddressClass> classes) {
            QTest::newRow(name) << text << classMask(classes);
        };
        row("mapped metadata", "::ffff:169.254.169.254", {AddressClass::Ipv4Mapped, AddressClass::CloudMetadata});
        row("mapped loopback, hex", "::ffff:7f00:1", {AddressClass::Ipv4Mapped, AddressClass::Loopback});
        row("mapped private", "::ffff:10.0.0.1", {AddressClass::Ipv4Mapped, AddressClass::Private});
        row("mapped zero", "::ffff:0.0.0.0", {AddressClass::Ipv4Mapped, AddressClass::Unspecified});
        row("compatible loopback", "::127.0.0.1", {AddressClass::Ipv4Compatible, AddressClass::Loopback});
        row("compatible metadata", "::a9fe:a9fe", {AddressClass::Ipv4Compatible, AddressClass::CloudMetadata});
        row("NAT64 metadata", "64:ff9b::a9fe:a9fe", {AddressClass::Nat64, AddressClass::CloudMetadata});
        row("NAT64 loopback", "64:ff9b::127.0.0.1", {AddressClass::Nat64, AddressClass::Loopback});
        row("local-use NAT64", "64:ff9b:1::10.0.0.1", {AddressClass::Nat64, AddressClass::Private});
        row("6to4 metadata", "2002:a9fe:a9fe::", {AddressClass::SixToFour, AddressClass::CloudMetadata});
        row("6to4 loopback", "2002:7f00:1::1", {AddressClass::SixToFour, AddressClass::Loopback});
        row("Teredo, private server", "2001:0:a00:1::1", {AddressClass::Teredo, AddressClass::Private});
        // The Teredo client is stored inverted: 0x5601565e is ~169.254.169.254.
        row("Teredo, metadata client", "2001:0:808:808:0:0:5601:5601",
            {AddressClass::Teredo, AddressClass::CloudMetadata});
        row("SIIT translated loopback", "::ffff:0:127.0.0.1", {AddressClass::Reserved, AddressClass::Loopback});
    }

    void seesThroughEmbeddedIpv4()
    {
        QFETCH(QString, text);
        QFETCH(uint, mustHave);

        const auto parsed = IpAddress::parse(text.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(errorOf(parsed)));
        QCOMPARE(parsed->classes() & mustHave, mustHave);
        QVERIFY(!parsed->isPublicUnicast());
    }

    void publicUnicastIsTheOnlyDefault_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("isPublic");

        QTest::newRow("8.8.8.8") << "8.8.8.8" << true;
        QTest::newRow("1.1.1.1") << "1.1.1.1" << true;
        QTest::newRow("just below 10/8") << "9.255.255.255" << true;
        QTest::newRow("just above 10/8") << "11.0.0.0" << true;
        QTest::newRow("just below 172.16/12") << "172.15.255.255" << true;
        QTest::newRow("just above 172.16/12") << "172.32.0.0" << true;
        QTest::newRow("just below CGNAT") << "100.63.255.255" << true;
        QTest::newRow("just above CGNAT") << "100.128.0.0" << true;
        QTest::newRow("just below multicast") << "223.255.255.255" << true;
        QTest::newRow("169.253.255.255") << "169.253.255.255" << true;
        QTest::newRow("Google IPv6") << "2001:4860:4860::8888" << true;
        QTest::newRow("Cloudflare IPv6") << "2606:4700:4700::1111" << true;
        QTest::newRow("NAT64 of a public address") << "64:ff9b::8.8.8.8" << true;
        QTest::newRow("just above 2001:db8::/32") << "2001:db9::1" << true;
        QTest::newRow("mapped public is not dialled as such") << "::ffff:8.8.8.8" << false;
        QTest::newRow("6to4 of a public address") << "2002:808:808::1" << false;
        QTest::newRow("Teredo") << "2001:0:4136:e378:8000:63bf:3fff:fdd2" << false;
        QTest::newRow("local-use NAT64 of a public address") << "64:ff9b:1::8.8.8.8" << false;
        QTest::newRow("zero") << "0" << false;
        QTest::newRow("documentation") << "3fff::1" << false;
    }

    void publicUnicastIsTheOnlyDefault()
    {
        QFETCH(QString, text);
        QFETCH(bool, isPublic);

        const auto parsed = IpAddress::parse(text.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(errorOf(parsed)));
        QCOMPARE(parsed->isPublicUnicast(), isPublic);
    }

    void embeddedAddressesAreExtracted()
    {
        const auto teredo = IpAddress::parse("2001:0:4136:e378:8000:63bf:3fff:fdd2");
        const auto inside = teredo->embeddedV4();
        QCOMPARE(inside.size(), size_t{2});
        QCOMPARE(inside[0].toString(), std::string("65.54.227.120"));  // the server
        QCOMPARE(inside[1].toString(), std::string("192.0.2.45"));     // the client, RFC 4380's example
        QVERIFY(IpAddress::parse("2001:db8::1")->embeddedV4().empty());
        QVERIFY(IpAddress::parse("::1")->embeddedV4().empty());
        QVERIFY(IpAddress::parse("::")->embeddedV4().empty());
        QVERIFY(IpAddress::parse("8.8.8.8")->embeddedV4().empty());
    }
};

QTEST_GUILESS_MAIN(IpAddressClassification)
#include "tst_ip_address_classification.moc"
