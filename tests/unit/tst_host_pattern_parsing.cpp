// SPDX-License-Identifier: Apache-2.0
// HostPattern is one value of --allow-host, typed by a person: it accepts the
// few shapes the documentation shows, normalises names, and refuses anything
// else with an error that says how to write it, so that a pattern never opens
// more of the network than the person reading it thinks.
#include "egress/host_pattern.h"

#include <QTest>

using moat::HostPattern;

namespace {

QString errorOf(const moat::Result<HostPattern>& parsed)
{
    return parsed.ok() ? QString() : QString::fromStdString(parsed.error().message());
}

}  // namespace

class HostPatternParsing : public QObject {
    Q_OBJECT

private slots:
    void acceptsTheDocumentedShapes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");
        QTest::addColumn<bool>("wildcard");
        QTest::addColumn<bool>("ipLiteral");
        QTest::addColumn<int>("port");  // 0: the default ports

        QTest::newRow("name") << "example.com" << "example.com" << false << false << 0;
        QTest::newRow("name and port") << "example.com:8443" << "example.com:8443" << false << false << 8443;
        QTest::newRow("wildcard") << "*.example.com" << "*.example.com" << true << false << 0;
        QTest::newRow("wildcard and port") << "*.example.com:8080" << "*.example.com:8080" << true << false << 8080;
        QTest::newRow("IPv4") << "203.0.113.7" << "203.0.113.7" << false << true << 0;
        QTest::newRow("IPv4 and port") << "203.0.113.7:443" << "203.0.113.7:443" << false << true << 443;
        QTest::newRow("IPv6") << "[2001:db8::1]" << "[2001:db8::1]" << false << true << 0;
        QTest::newRow("IPv6 and port") << "[2001:db8::1]:443" << "[2001:db8::1]:443" << false << true << 443;
        QTest::newRow("IPv6, long form") << "[2001:DB8:0:0:0:0:0:1]:443" << "[2001:db8::1]:443" << false << true << 443;
        QTest::newRow("upper case") << "API.Example.COM" << "api.example.com" << false << false << 0;
        QTest::newRow("trailing dot") << "example.com." << "example.com" << false << false << 0;
        QTest::newRow("trailing dot and port") << "example.com.:8443" << "example.com:8443" << false << false << 8443;
        QTest::newRow("wildcard, upper case") << "*.Example.COM." << "*.example.com" << true << false << 0;
        QTest::newRow("punycode") << "xn--bcher-kva.example" << "xn--bcher-kva.example" << false << false << 0;
        QTest::newRow("single label") << "gitlab" << "gitlab" << false << false << 0;
        QTest::newRow("localhost, exactly") << "localhost:8080" << "localhost:8080" << false << false << 8080;
        QTest::newRow("underscore") << "my_bucket.s3.example.com" << "my_bucket.s3.example.com" << false << false << 0;
        QTest::newRow("digits in labels") << "1e100.net" << "1e100.net" << false << false << 0;
        QTest::newRow("numeric first label") << "123.example.com" << "123.example.com" << false << false << 0;
        QTest::newRow("port 1") << "example.com:1" << "example.com:1" << false << false << 1;
        QTest::newRow("port 65535") << "example.com:65535" << "example.com:65535" << false << false << 65535;
        QTest::newRow("port with leading zero") << "example.com:0443" << "example.com:443" << false << false << 443;
        QTest::newRow("nested wildcard suffix") << "*.api.example.co.uk" << "*.api.example.co.uk" << true << false << 0;
        QTest::newRow("63-character label") << QString(63, 'a') + ".com" << QString(63, 'a') + ".com" << false << false << 0;
    }

    void acceptsTheDocumentedShapes()
    {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        QFETCH(bool, wildcard);
        QFETCH(bool, ipLiteral);
        QFETCH(int, port);

        const auto parsed = HostPattern::parse(text.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(errorOf(parsed)));
        QCOMPARE(QString::fromStdString(parsed->toString()), canonical);
        QCOMPARE(parsed->isWildcard(), wildcard);
        QCOMPARE(parsed->isIpLiteral(), ipLiteral);
        QCOMPARE(parsed->port().value_or(0), port);
        // The canonical spelling means the same pattern.
        const auto again = HostPattern::parse(parsed->toString());
        QVERIFY(again.ok());
        QCOMPARE(again.value(), parsed.value());
    }

    void rejectsEverythingElse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");  // part of the error a person needs

        QTest::newRow("empty") << "" << "empty";
        QTest::newRow("space inside") << "exa mple.com" << "whitespace";
        QTest::newRow("leading space") << " example.com" << "whitespace";
        QTest::newRow("trailing space") << "example.com " << "whitespace";
        QTest::newRow("tab") << "example.com\t" << "whitespace";
        QTest::newRow("newline") << "example.com\n" << "whitespace";
        QTest::newRow("NUL") << QString::fromLatin1("example.com\0x", 13) << "control";
        QTest::newRow("URL") << "https://example.com" << "URL";
        QTest::newRow("path") << "example.com/path" << "path";
        QTest::newRow("query") << "example.com?x=1" << "path";
        QTest::newRow("fragment") << "example.com#x" << "path";
        QTest::newRow("userinfo") << "user@example.com" << "user";
        QTest::newRow("userinfo and password") << "user:pw@example.com" << "user";
        QTest::newRow("percent-encoded") << "ex%61mple.com" << "%";
        QTest::newRow("zone") << "[fe80::1%eth0]:80" << "%";
        QTest::newRow("empty port") << "example.com:" << "port";
        QTest::newRow("port 0") << "example.com:0" << "port";
        QTest::newRow("port 65536") << "example.com:65536" << "port";
        QTest::newRow("port 99999") << "example.com:99999" << "port";
        QTest::newRow("port too long") << "example.com:000443" << "port";
        QTest::newRow("negative port") << "example.com:-1" << "port";
        QTest::newRow("port with sign") << "example.com:+443" << "port";
        QTest::newRow("named port") << "example.com:https" << "port";
        QTest::newRow("two ports") << "example.com:80:443" << "brackets";
        QTest::newRow("star alone") << "*" << "every host";
        QTest::newRow("star and port") << "*:443" << "every host";
        QTest::newRow("star dot") << "*." << "empty";
        QTest::newRow("single-label wildcard") << "*.com" << "two labels";
        QTest::newRow("single-label wildcard, trailing dot") << "*.com." << "two labels";
        QTest::newRow("*.localhost") << "*.localhost" << "two labels";
        QTest::newRow("wildcard in the middle") << "api.*.example.com" << "first label";
        QTest::newRow("partial wildcard") << "api*.example.com" << "first label";
        QTest::newRow("double wildcard") << "*.*.example.com" << "first label";
        QTest::newRow("trailing wildcard") << "example.*" << "first label";
        QTest::newRow("wildcard on an IP") << "*.0.113.7" << "number";
        QTest::newRow("non-ASCII") << "b\xc3\xbc" "cher.example" << "punycode";
        QTest::newRow("fullwidth dot") << "example\xef\xbc\x8e" "com" << "punycode";
        QTest::newRow("64-character label") << QString(64, 'a') + ".com" << "63";
        QTest::newRow("254-character name") << QString(250, 'a').replace(60, 1, '.').replace(120, 1, '.').replace(180, 1, '.') + ".com" << "253";
        QTest::newRow("empty label") << "example..com" << "empty label";
        QTest::newRow("leading dot") << ".example.com" << "empty label";
        QTest::newRow("two trailing dots") << "example.com.." << "empty label";
        QTest::newRow("leading hyphen") << "-example.com" << "'-'";
        QTest::newRow("trailing hyphen") << "example-.com" << "'-'";
        QTest::newRow("bad character") << "exa!mple.com" << "'!'";
        QTest::newRow("backslash") << "example.com\\.evil.com" << "'\\'";
        QTest::newRow("unbracketed IPv6") << "2001:db8::1" << "brackets";
        QTest::newRow("unbracketed IPv6 and port") << "2001:db8::1:443" << "brackets";
        QTest::newRow("unclosed bracket") << "[2001:db8::1" << "not closed";
        QTest::newRow("IPv4 in brackets") << "[203.0.113.7]:443" << "IPv6";
        QTest::newRow("name in brackets") << "[example.com]" << "IPv6";
        QTest::newRow("garbage after bracket") << "[::1]x" << "':PORT'";
        QTest::newRow("decimal IPv4") << "2130706433" << "four decimal";
        QTest::newRow("hex IPv4") << "0x7f.1" << "four decimal";
        QTest::newRow("short IPv4") << "127.1" << "four decimal";
        QTest::newRow("octal-looking IPv4") << "010.0.0.1" << "four decimal";
        QTest::newRow("padded IPv4") << "127.000.000.001" << "four decimal";
        QTest::newRow("IPv4 trailing dot") << "203.0.113.7." << "four decimal";
        QTest::newRow("invalid IPv4") << "256.0.0.1" << "number";
        QTest::newRow("numeric last label") << "example.123" << "number";
        QTest::newRow("hex last label") << "example.0x1f" << "number";
    }

    void rejectsEverythingElse()
    {
        QFETCH(QString, text);
        QFETCH(QString, mentions);

        const auto parsed = HostPattern::parse(text.toStdString());
        QVERIFY2(!parsed.ok(), qPrintable("accepted as " + QString::fromStdString(parsed.ok() ? parsed->toString() : "")));
        const QString message = QString::fromStdString(parsed.error().message());
        QVERIFY2(message.contains(mentions, Qt::CaseInsensitive), qPrintable(message));
        QVERIFY(message.contains("--allow-host"));
        QVERIFY(!parsed.error().hint.empty());
        QCOMPARE(parsed.error().errnum, 0);
    }

    void matchesWhatItNames_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<bool>("matches");

        QTest::newRow("exact, 443") << "example.com" << "example.com" << 443 << true;
        QTest::newRow("exact, 80") << "example.com" << "example.com" << 80 << true;
        QTest::newRow("exact, 8080 not by default") << "example.com" << "example.com" << 8080 << false;
        QTest::newRow("exact, 22 not by default") << "example.com" << "example.com" << 22 << false;
        QTest::newRow("exact, upper-case host") << "example.com" << "EXAMPLE.Com" << 443 << true;
        QTest::newRow("exact, trailing dot host") << "example.com" << "example.com." << 443 << true;
        QTest::newRow("exact, subdomain is not it") << "example.com" << "www.example.com" << 443 << false;
        QTest::newRow("exact, suffix trick") << "example.com" << "evilexample.com" << 443 << false;
        QTest::newRow("exact, prefix trick") << "example.com" << "example.com.evil.net" << 443 << false;
        QTest::newRow("with port, that port") << "example.com:8443" << "example.com" << 8443 << true;
        QTest::newRow("with port, not 443") << "example.com:8443" << "example.com" << 443 << false;
        QTest::newRow("with port, not 80") << "example.com:8443" << "example.com" << 80 << false;
        QTest::newRow("wildcard, subdomain") << "*.example.com" << "api.example.com" << 443 << true;
        QTest::newRow("wildcard, deep subdomain") << "*.example.com" << "a.b.c.example.com" << 443 << true;
        QTest::newRow("wildcard, not the apex") << "*.example.com" << "example.com" << 443 << false;
        QTest::newRow("wildcard, not the apex with a dot") << "*.example.com" << "example.com." << 443 << false;
        QTest::newRow("wildcard, suffix trick") << "*.example.com" << "evilexample.com" << 443 << false;
        QTest::newRow("wildcard, empty label") << "*.example.com" << ".example.com" << 443 << false;
        QTest::newRow("wildcard, other port") << "*.example.com" << "api.example.com" << 22 << false;
        QTest::newRow("wildcard with port") << "*.example.com:8080" << "api.example.com" << 8080 << true;
        QTest::newRow("wildcard with port, not 443") << "*.example.com:8080" << "api.example.com" << 443 << false;
        QTest::newRow("wildcard, upper case") << "*.example.com" << "API.EXAMPLE.COM." << 443 << true;
        QTest::newRow("name pattern never matches an IP") << "*.example.com" << "127.0.0.1" << 443 << false;
        QTest::newRow("nip.io-style name is just a name") << "*.nip.io" << "169.254.169.254.nip.io" << 443 << true;
        QTest::newRow("IP, exact") << "203.0.113.7:443" << "203.0.113.7" << 443 << true;
        QTest::newRow("IP, other port") << "203.0.113.7:443" << "203.0.113.7" << 80 << false;
        QTest::newRow("IP, default ports") << "203.0.113.7" << "203.0.113.7" << 80 << true;
        QTest::newRow("IP, any spelling of it") << "203.0.113.7:443" << "0xcb.0.113.7" << 443 << true;
        QTest::newRow("IP, decimal spelling") << "203.0.113.7:443" << "3405803783" << 443 << true;
        QTest::newRow("IP, mapped spelling") << "203.0.113.7:443" << "::ffff:203.0.113.7" << 443 << true;
        QTest::newRow("IP, a neighbour") << "203.0.113.7:443" << "203.0.113.8" << 443 << false;
        QTest::newRow("IP pattern never matches a name") << "203.0.113.7:443" << "203.0.113.7.nip.io" << 443 << false;
        QTest::newRow("IPv6, bracketed host") << "[2001:db8::1]:443" << "[2001:db8::1]" << 443 << true;
        QTest::newRow("IPv6, bare host") << "[2001:db8::1]:443" << "2001:db8:0::1" << 443 << true;
        QTest::newRow("IPv6, zoned host") << "[fe80::1]:443" << "fe80::1%eth0" << 443 << false;
        QTest::newRow("padded host") << "example.com" << " example.com" << 443 << false;
        QTest::newRow("percent-encoded host") << "example.com" << "ex%61mple.com" << 443 << false;
        QTest::newRow("port 0") << "example.com" << "example.com" << 0 << false;
    }

    void matchesWhatItNames()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(bool, matches);

        const auto parsed = HostPattern::parse(pattern.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(errorOf(parsed)));
        QCOMPARE(parsed->matches(host.toStdString(), static_cast<uint16_t>(port)), matches);
    }

    void normalisesHostNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("normalised");  // empty: refused

        QTest::newRow("lower case") << "Example.COM" << "example.com";
        QTest::newRow("trailing dot") << "LOCALHOST." << "localhost";
        QTest::newRow("IPv4 is not a name") << "127.0.0.1" << "";
        QTest::newRow("hex IPv4 is not a name") << "0x7f.1" << "";
        QTest::newRow("invalid numeric") << "1.2.3.08" << "";
        QTest::newRow("IPv6 is not a name") << "::1" << "";
        QTest::newRow("space") << "example.com " << "";
        QTest::newRow("empty") << "" << "";
        QTest::newRow("dot alone") << "." << "";
    }

    void normalisesHostNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, normalised);

        const auto result = HostPattern::normalizeName(name.toStdString());
        QCOMPARE(result.ok(), !normalised.isEmpty());
        if (result.ok()) {
            QCOMPARE(QString::fromStdString(result.value()), normalised);
        }
    }
};

QTEST_GUILESS_MAIN(HostPatternParsing)
#include "tst_host_pattern_parsing.moc"
