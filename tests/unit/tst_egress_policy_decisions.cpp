// SPDX-License-Identifier: Apache-2.0
// EgressPolicy decides what the sandbox may reach. The agent chooses the host
// text, so each row here is a trick it may try: addresses in disguise, names
// that mean this machine or the cloud's metadata service, wildcards stretched
// over them, hosts that resolve somewhere private, headers naming another
// host. Every refusal must name the flag that would allow it.
#include "egress/egress_policy.h"

#include <QTest>

#include <algorithm>
#include <functional>

using moat::EgressDecision;
using moat::EgressPolicy;
using moat::HostPattern;
using moat::IpAddress;

namespace {

// What the rows below run against, as a person would type it.
const std::vector<std::string> kAllowed = {
    "*.example.com", "example.org",     "api.example.net:8443", "203.0.113.7:443", "[2001:db8::7]:443",
    "*.google.internal", "*.nip.io",    "localhost:8080",       "10.0.0.5:443",    "127.0.0.1:8080",
    "*.dev.localhost",
};

EgressPolicy policy(std::vector<std::string> values = kAllowed)
{
    auto built = EgressPolicy::fromArguments(values);
    if (!built) {
        qFatal("%s", built.error().message().c_str());
    }
    return built.value();
}

IpAddress address(const QString& text)
{
    auto parsed = IpAddress::parse(text.toStdString());
    if (!parsed) {
        qFatal("%s", parsed.error().message().c_str());
    }
    return parsed.value();
}

QString describe(const EgressDecision& decision)
{
    return QString("%1: %2").arg(decision.allowed ? "allowed" : "denied", QString::fromStdString(decision.reason));
}

// A reason is one printable line, whatever bytes the agent sent.
bool isOnePrintableLine(const std::string& text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

// The suggested flag, added to the command line, must allow what was denied.
void checkSuggestion(const EgressDecision& decision, const std::function<EgressDecision(const EgressPolicy&)>& decide)
{
    if (decision.suggestion.empty()) {
        return;
    }
    QVERIFY2(QString::fromStdString(decision.reason).endsWith("; run with " + QString::fromStdString(decision.suggestion)),
             qPrintable(describe(decision)));
    const std::string prefix = "--allow-host ";
    QVERIFY(decision.suggestion.starts_with(prefix));
    std::vector<std::string> values = kAllowed;
    values.push_back(decision.suggestion.substr(prefix.size()));
    const EgressDecision after = decide(policy(values));
    QVERIFY2(after.allowed, qPrintable("still " + describe(after)));
}

}  // namespace

class EgressPolicyDecisions : public QObject {
    Q_OBJECT

private slots:
    void theIssueExampleReadsAsWritten()
    {
        const EgressDecision decision = EgressPolicy().decideName("example.org", 443);
        QVERIFY(!decision.allowed);
        QCOMPARE(decision.reason, std::string("example.org:443 is not allowed; run with --allow-host example.org"));
        QCOMPARE(decision.suggestion, std::string("--allow-host example.org"));
        QCOMPARE(EgressPolicy().decideName("example.org", 8443).suggestion, std::string("--allow-host example.org:8443"));
    }

    void aLoopbackNameSaysWhyItWasRefused()
    {
        // The reason speaks of a wildcard only when one was written.
        const EgressDecision plain = EgressPolicy().decideName("localhost", 8080);
        QCOMPARE(plain.reason, std::string("localhost:8080 is a name of this machine's loopback and is not allowed; "
                                           "run with --allow-host localhost:8080"));
        const EgressDecision underWildcard = policy({"*.dev.localhost"}).decideName("app.dev.localhost", 443);
        QVERIFY(!underWildcard.allowed);
        QVERIFY2(underWildcard.reason.find("which a wildcard never allows") != std::string::npos,
                 underWildcard.reason.c_str());
    }

    void anEmptyPolicyAllowsNothing()
    {
        const EgressPolicy none;
        QVERIFY(!none.decideName("example.com", 443).allowed);
        QVERIFY(!none.decideName("8.8.8.8", 443).allowed);
        QVERIFY(!none.decideResolved("example.com", 443, address("8.8.8.8")).allowed);
    }

    void decidesByName_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<QString>("suggestion");  // when denied; empty: no flag can allow it
        QTest::addColumn<QString>("mentions");    // part of the reason

        // Names, matched by patterns only.
        QTest::newRow("exact name") << "example.org" << 443 << true << "" << "--allow-host example.org";
        QTest::newRow("exact name, port 80") << "example.org" << 80 << true << "" << "";
        QTest::newRow("exact name, other port") << "example.org" << 8443 << false << "--allow-host example.org:8443" << "example.org:8443";
        QTest::newRow("case and trailing dot") << "EXAMPLE.Org." << 443 << true << "" << "";
        QTest::newRow("not named") << "other.org" << 443 << false << "--allow-host other.org" << "not allowed";
        QTest::newRow("wildcard") << "www.example.com" << 443 << true << "" << "*.example.com";
        QTest::newRow("wildcard, not the apex") << "example.com" << 443 << false << "--allow-host example.com" << "";
        QTest::newRow("wildcard, suffix trick") << "evilexample.com" << 443 << false << "--allow-host evilexample.com" << "";
        QTest::newRow("wildcard, prefix trick") << "www.example.com.evil.net" << 443 << false
                                                << "--allow-host www.example.com.evil.net" << "";
        QTest::newRow("named port") << "api.example.net" << 8443 << true << "" << "";
        QTest::newRow("named port, not 443") << "api.example.net" << 443 << false << "--allow-host api.example.net" << "";
        QTest::newRow("nip.io-style name is a name") << "169.254.169.254.nip.io" << 443 << true << "" << "";
        // Names of this machine and of the metadata services.
        QTest::newRow("localhost") << "localhost" << 80 << false << "--allow-host localhost:80" << "loopback";
        QTest::newRow("LOCALHOST.") << "LOCALHOST." << 443 << false << "--allow-host localhost:443" << "loopback";
        QTest::newRow("localhost, exactly allowed") << "localhost" << 8080 << true << "" << "";
        QTest::newRow("LOCALHOST., exactly allowed") << "LOCALHOST." << 8080 << true << "" << "";
        QTest::newRow("under .localhost, despite a wildcard") << "app.dev.localhost" << 443 << false
                                                              << "--allow-host app.dev.localhost:443" << "loopback";
        QTest::newRow("GCP metadata, despite a wildcard") << "metadata.google.internal" << 80 << false
                                                          << "--allow-host metadata.google.internal:80" << "metadata";
        QTest::newRow("GCP metadata, spelt loudly") << "METADATA.GOOGLE.INTERNAL." << 80 << false
                                                    << "--allow-host metadata.google.internal:80" << "metadata";
        QTest::newRow("other .google.internal") << "build.google.internal" << 443 << true << "" << "";
        QTest::newRow("metadata") << "metadata" << 80 << false << "--allow-host metadata:80" << "metadata";
        QTest::newRow("instance-data") << "instance-data" << 80 << false << "--allow-host instance-data:80" << "metadata";
        QTest::newRow("ip6-localhost") << "ip6-localhost" << 443 << false << "--allow-host ip6-localhost:443" << "";
        // IP literals, reached only when named exactly with their port.
        QTest::newRow("loopback") << "127.0.0.1" << 80 << false << "--allow-host 127.0.0.1:80" << "loopback";
        QTest::newRow("loopback, allowed port") << "127.0.0.1" << 8080 << true << "" << "127.0.0.1:8080";
        QTest::newRow("loopback, 0x7f.1") << "0x7f.1" << 80 << false << "--allow-host 127.0.0.1:80" << "written 0x7f.1";
        QTest::newRow("loopback, 0x7f.1, allowed port") << "0x7f.1" << 8080 << true << "" << "";
        QTest::newRow("loopback, padded octets") << "127.000.000.001" << 80 << false << "--allow-host 127.0.0.1:80" << "";
        QTest::newRow("loopback, decimal") << "2130706433" << 80 << false << "--allow-host 127.0.0.1:80" << "loopback";
        QTest::newRow("loopback, octal") << "017700000001" << 80 << false << "--allow-host 127.0.0.1:80" << "";
        QTest::newRow("loopback, trailing dot") << "127.0.0.1." << 80 << false << "--allow-host 127.0.0.1:80" << "";
        QTest::newRow("loopback, mapped") << "[::ffff:7f00:1]" << 80 << false << "--allow-host [::ffff:127.0.0.1]:80" << "loopback";
        QTest::newRow("loopback, mapped, allowed port") << "[::ffff:7f00:1]" << 8080 << true << "" << "";
        QTest::newRow("IPv6 loopback") << "::1" << 8080 << false << "--allow-host [::1]:8080" << "loopback";
        QTest::newRow("IPv6 loopback, bracketed") << "[::1]" << 443 << false << "--allow-host [::1]:443" << "";
        QTest::newRow("zero") << "0" << 80 << false << "--allow-host 0.0.0.0:80" << "unspecified";
        QTest::newRow("0.0.0.0") << "0.0.0.0" << 80 << false << "--allow-host 0.0.0.0:80" << "";
        QTest::newRow("::") << "::" << 80 << false << "--allow-host [::]:80" << "";
        QTest::newRow("[::]") << "[::]" << 80 << false << "--allow-host [::]:80" << "";
        QTest::newRow("metadata IP") << "169.254.169.254" << 80 << false << "--allow-host 169.254.169.254:80" << "cloud metadata";
        QTest::newRow("metadata IP, hex") << "0xa9fea9fe" << 80 << false << "--allow-host 169.254.169.254:80" << "cloud metadata";
        QTest::newRow("metadata IP, NAT64") << "64:ff9b::a9fe:a9fe" << 80 << false
                                            << "--allow-host [64:ff9b::a9fe:a9fe]:80" << "cloud metadata";
        QTest::newRow("public IP, not named") << "8.8.8.8" << 443 << false << "--allow-host 8.8.8.8:443" << "public";
        QTest::newRow("named IP") << "203.0.113.7" << 443 << true << "" << "";
        // The pattern names an address, not a spelling: the proxy dials the same host.
        QTest::newRow("named IP, other spelling") << "203.0.113.07" << 443 << true << "" << "written 203.0.113.07";
        QTest::newRow("named IP, other port") << "203.0.113.7" << 80 << false << "--allow-host 203.0.113.7:80" << "";
        QTest::newRow("named IPv6") << "[2001:db8::7]" << 443 << true << "" << "";
        QTest::newRow("named IPv6, long form") << "2001:db8:0:0:0:0:0:7" << 443 << true << "" << "";
        QTest::newRow("wildcard never covers an IP") << "1.2.3.4" << 443 << false << "--allow-host 1.2.3.4:443" << "";
        QTest::newRow("zoned link-local") << "fe80::1%eth0" << 80 << false << "" << "network interface";
        // Not a host at all: refused, and no flag can change that.
        QTest::newRow("empty") << "" << 443 << false << "" << "neither";
        QTest::newRow("leading space") << " example.org" << 443 << false << "" << "neither";
        QTest::newRow("trailing space") << "example.org " << 443 << false << "" << "neither";
        QTest::newRow("tab") << "example.org\t" << 443 << false << "" << "neither";
        QTest::newRow("percent-encoded") << "ex%61mple.org" << 443 << false << "" << "neither";
        QTest::newRow("percent-encoded IP") << "%31%32%37.0.0.1" << 80 << false << "" << "neither";
        QTest::newRow("header injection") << "example.org\r\nX-Evil: 1" << 443 << false << "" << "example.org??X-Evil:";
        QTest::newRow("terminal escape") << "\x1b]0;pwned\x07" << 443 << false << "" << "?]0;pwned?";
        QTest::newRow("host with port") << "example.org:443" << 443 << false << "" << "neither";
        QTest::newRow("userinfo") << "user@example.org" << 443 << false << "" << "neither";
        QTest::newRow("name in brackets") << "[example.org]" << 443 << false << "" << "neither";
        QTest::newRow("IPv4 in brackets") << "[127.0.0.1]" << 80 << false << "" << "neither";
        QTest::newRow("invalid numeric name") << "1.2.3.08" << 443 << false << "" << "neither";
        QTest::newRow("numeric last label") << "www.example.com.123" << 443 << false << "" << "neither";
        QTest::newRow("wildcard as a host") << "*.example.com" << 443 << false << "" << "neither";
        QTest::newRow("non-ASCII") << "\xd0\xb5xample.org" << 443 << false << "" << "neither";
        QTest::newRow("port 0") << "example.org" << 0 << false << "" << "port 0";
    }

    void decidesByName()
    {
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(bool, allowed);
        QFETCH(QString, suggestion);
        QFETCH(QString, mentions);

        const std::string hostText = host.toStdString();
        const auto p = static_cast<uint16_t>(port);
        const EgressDecision decision = policy().decideName(hostText, p);
        QVERIFY2(decision.allowed == allowed, qPrintable(describe(decision)));
        QVERIFY2(isOnePrintableLine(decision.reason), qPrintable(describe(decision)));
        QVERIFY2(QString::fromStdString(decision.reason).contains(mentions), qPrintable(describe(decision)));
        QCOMPARE(QString::fromStdString(decision.suggestion), allowed ? QString() : suggestion);
        checkSuggestion(decision, [&](const EgressPolicy& wider) { return wider.decideName(hostText, p); });
    }

    void decidesAfterResolution_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("resolved");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<QString>("suggestion");
        QTest::addColumn<QString>("mentions");

        QTest::newRow("public") << "example.org" << 443 << "93.184.216.34" << true << "" << "";
        QTest::newRow("public IPv6") << "www.example.com" << 443 << "2606:2800:220:1:248:1893:25c8:1946" << true << "" << "";
        QTest::newRow("NAT64 of a public address") << "www.example.com" << 443 << "64:ff9b::5db8:d822" << true << "" << "";
        QTest::newRow("loopback") << "example.org" << 443 << "127.0.0.1" << false << "--allow-host 127.0.0.1:443"
                                  << "example.org:443 resolved to 127.0.0.1:443, a loopback address";
        QTest::newRow("loopback at an allowed port") << "example.org" << 80 << "127.0.0.1" << false
                                                     << "--allow-host 127.0.0.1:80" << "loopback";
        QTest::newRow("private, allowed exactly") << "example.org" << 443 << "10.0.0.5" << true << "" << "10.0.0.5:443";
        QTest::newRow("private, other port") << "example.org" << 80 << "10.0.0.5" << false << "--allow-host 10.0.0.5:80" << "private";
        QTest::newRow("private neighbour") << "example.org" << 443 << "10.0.0.6" << false << "--allow-host 10.0.0.6:443" << "private";
        QTest::newRow("metadata") << "www.example.com" << 443 << "169.254.169.254" << false
                                  << "--allow-host 169.254.169.254:443" << "cloud metadata";
        QTest::newRow("metadata, mapped") << "www.example.com" << 443 << "::ffff:169.254.169.254" << false
                                          << "--allow-host [::ffff:169.254.169.254]:443" << "cloud metadata";
        QTest::newRow("metadata, NAT64") << "www.example.com" << 443 << "64:ff9b::a9fe:a9fe" << false
                                         << "--allow-host [64:ff9b::a9fe:a9fe]:443" << "cloud metadata";
        QTest::newRow("metadata, 6to4") << "www.example.com" << 443 << "2002:a9fe:a9fe::" << false
                                        << "--allow-host [2002:a9fe:a9fe::]:443" << "cloud metadata";
        QTest::newRow("AWS IPv6 metadata") << "www.example.com" << 443 << "fd00:ec2::254" << false
                                           << "--allow-host [fd00:ec2::254]:443" << "cloud metadata";
        QTest::newRow("nip.io to metadata") << "169.254.169.254.nip.io" << 443 << "169.254.169.254" << false
                                            << "--allow-host 169.254.169.254:443" << "cloud metadata";
        QTest::newRow("CGNAT") << "www.example.com" << 443 << "100.64.1.1" << false << "--allow-host 100.64.1.1:443"
                               << "carrier-grade NAT";
        QTest::newRow("unspecified") << "www.example.com" << 443 << "0.0.0.0" << false << "--allow-host 0.0.0.0:443"
                                     << "unspecified";
        QTest::newRow("IPv6 unspecified") << "www.example.com" << 443 << "::" << false << "--allow-host [::]:443" << "";
        QTest::newRow("multicast") << "www.example.com" << 443 << "239.1.2.3" << false << "--allow-host 239.1.2.3:443"
                                   << "multicast";
        QTest::newRow("broadcast") << "www.example.com" << 443 << "255.255.255.255" << false
                                   << "--allow-host 255.255.255.255:443" << "broadcast";
        QTest::newRow("ULA") << "www.example.com" << 443 << "fd12::1" << false << "--allow-host [fd12::1]:443" << "private";
        QTest::newRow("zoned link-local") << "www.example.com" << 443 << "fe80::1%eth0" << false << "" << "network interface";
        QTest::newRow("denied by name first") << "other.org" << 443 << "93.184.216.34" << false << "--allow-host other.org" << "";
        QTest::newRow("localhost, both exact") << "localhost" << 8080 << "127.0.0.1" << true << "" << "";
        QTest::newRow("localhost over IPv6") << "localhost" << 8080 << "::1" << false << "--allow-host [::1]:8080" << "loopback";
        QTest::newRow("named documentation address") << "203.0.113.7" << 443 << "203.0.113.7" << true << "" << "";
        QTest::newRow("documentation address") << "www.example.com" << 443 << "192.0.2.1" << false
                                               << "--allow-host 192.0.2.1:443" << "documentation";
    }

    void decidesAfterResolution()
    {
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, resolved);
        QFETCH(bool, allowed);
        QFETCH(QString, suggestion);
        QFETCH(QString, mentions);

        const std::string hostText = host.toStdString();
        const auto p = static_cast<uint16_t>(port);
        const IpAddress ip = address(resolved);
        const EgressDecision decision = policy().decideResolved(hostText, p, ip);
        QVERIFY2(decision.allowed == allowed, qPrintable(describe(decision)));
        QVERIFY2(isOnePrintableLine(decision.reason), qPrintable(describe(decision)));
        QVERIFY2(QString::fromStdString(decision.reason).contains(mentions), qPrintable(describe(decision)));
        QCOMPARE(QString::fromStdString(decision.suggestion), allowed ? QString() : suggestion);
        checkSuggestion(decision, [&](const EgressPolicy& wider) { return wider.decideResolved(hostText, p, ip); });
    }

    void invalidArgumentsAreRefused()
    {
        const std::vector<std::string> values = {"example.org", "*", "example.net"};
        const auto built = EgressPolicy::fromArguments(values);
        QVERIFY(!built.ok());
        QVERIFY(built.error().what.find("'*'") != std::string::npos);
    }

    void sameDestination_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("other");
        QTest::addColumn<int>("otherPort");
        QTest::addColumn<bool>("same");

        QTest::newRow("identical") << "example.com" << 443 << "example.com" << 443 << true;
        QTest::newRow("case and trailing dot") << "example.com" << 443 << "EXAMPLE.COM." << 443 << true;
        QTest::newRow("other port") << "example.com" << 443 << "example.com" << 8443 << false;
        QTest::newRow("other host") << "example.com" << 443 << "evil.com" << 443 << false;
        QTest::newRow("subdomain") << "example.com" << 443 << "www.example.com" << 443 << false;
        QTest::newRow("IP spellings") << "127.0.0.1" << 80 << "0x7f.1" << 80 << true;
        QTest::newRow("IPv6 brackets") << "[::1]" << 443 << "::1" << 443 << true;
        QTest::newRow("IP and name") << "1.2.3.4" << 443 << "1.2.3.4.nip.io" << 443 << false;
        QTest::newRow("port 0") << "example.com" << 0 << "example.com" << 0 << false;
        QTest::newRow("padded") << "example.com" << 443 << " example.com" << 443 << false;
        QTest::newRow("both invalid") << "a b" << 443 << "a b" << 443 << false;
    }

    void sameDestination()
    {
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, other);
        QFETCH(int, otherPort);
        QFETCH(bool, same);

        QCOMPARE(EgressPolicy::sameDestination(host.toStdString(), static_cast<uint16_t>(port), other.toStdString(),
                                               static_cast<uint16_t>(otherPort)),
                 same);
        QCOMPARE(EgressPolicy::sameDestination(other.toStdString(), static_cast<uint16_t>(otherPort), host.toStdString(),
                                               static_cast<uint16_t>(port)),
                 same);
    }

    void hostHeaderNamesTheTarget_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<int>("defaultPort");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<bool>("names");

        QTest::newRow("no port, HTTPS") << "example.com" << 443 << "example.com" << 443 << true;
        QTest::newRow("no port, HTTP") << "example.com" << 80 << "example.com" << 80 << true;
        QTest::newRow("no port means the default") << "example.com" << 80 << "example.com" << 443 << false;
        QTest::newRow("explicit port") << "example.com:443" << 443 << "example.com" << 443 << true;
        QTest::newRow("case, dot and port") << "Example.COM.:443" << 443 << "example.com" << 443 << true;
        QTest::newRow("empty port is the default") << "example.com:" << 443 << "example.com" << 443 << true;
        QTest::newRow("other port") << "example.com:8443" << 443 << "example.com" << 443 << false;
        QTest::newRow("other host") << "evil.com" << 443 << "example.com" << 443 << false;
        QTest::newRow("metadata behind an allowed target") << "169.254.169.254" << 80 << "example.com" << 80 << false;
        QTest::newRow("IPv6") << "[2001:db8::1]:443" << 443 << "2001:db8::1" << 443 << true;
        QTest::newRow("IPv6, no port") << "[2001:db8::1]" << 443 << "[2001:db8::1]" << 443 << true;
        QTest::newRow("IPv6 unbracketed") << "2001:db8::1" << 443 << "2001:db8::1" << 443 << false;
        QTest::newRow("IP spelling") << "127.1:8080" << 80 << "127.0.0.1" << 8080 << true;
        QTest::newRow("port 65536") << "example.com:65536" << 443 << "example.com" << 443 << false;
        QTest::newRow("port 0") << "example.com:0" << 443 << "example.com" << 443 << false;
        QTest::newRow("port with sign") << "example.com:+443" << 443 << "example.com" << 443 << false;
        QTest::newRow("trailing space") << "example.com:443 " << 443 << "example.com" << 443 << false;
        QTest::newRow("userinfo") << "example.com@evil.com" << 443 << "example.com" << 443 << false;
        QTest::newRow("empty") << "" << 443 << "example.com" << 443 << false;
        QTest::newRow("garbage after bracket") << "[::1]x" << 443 << "::1" << 443 << false;
        QTest::newRow("two ports") << "example.com:443:443" << 443 << "example.com" << 443 << false;
    }

    void hostHeaderNamesTheTarget()
    {
        QFETCH(QString, header);
        QFETCH(int, defaultPort);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(bool, names);

        QCOMPARE(EgressPolicy::hostHeaderNames(header.toStdString(), static_cast<uint16_t>(defaultPort),
                                               host.toStdString(), static_cast<uint16_t>(port)),
                 names);
    }

    void serverNameNamesTheTarget_data()
    {
        QTest::addColumn<QString>("serverName");
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("names");

        QTest::newRow("same") << "example.com" << "example.com" << true;
        QTest::newRow("case and dot") << "EXAMPLE.com." << "example.com" << true;
        QTest::newRow("other") << "evil.com" << "example.com" << false;
        QTest::newRow("subdomain") << "www.example.com" << "example.com" << false;
        QTest::newRow("empty names nothing") << "" << "example.com" << false;
        QTest::newRow("IP literal is not a server name") << "127.0.0.1" << "127.0.0.1" << false;
        QTest::newRow("a name for an IP target") << "example.com" << "203.0.113.7" << false;
        QTest::newRow("embedded NUL") << QString::fromLatin1("example.com\0.evil.com", 21) << "example.com" << false;
    }

    void serverNameNamesTheTarget()
    {
        QFETCH(QString, serverName);
        QFETCH(QString, host);
        QFETCH(bool, names);

        const QByteArray sni = serverName.toLatin1();
        QCOMPARE(EgressPolicy::serverNameNames(std::string_view(sni.constData(), static_cast<size_t>(sni.size())),
                                               host.toStdString()),
                 names);
    }

    void sensitiveNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("sensitive");

        QTest::newRow("localhost") << "localhost" << true;
        QTest::newRow("under localhost") << "a.b.localhost" << true;
        QTest::newRow("metadata.google.internal") << "metadata.google.internal" << true;
        QTest::newRow("instance-data.ec2.internal") << "instance-data.ec2.internal" << true;
        QTest::newRow("not a suffix match") << "notlocalhost" << false;
        QTest::newRow("ordinary") << "example.com" << false;
        QTest::newRow("metadata as a label elsewhere") << "metadata.example.com" << false;
    }

    void sensitiveNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, sensitive);

        QCOMPARE(EgressPolicy::isSensitiveName(name.toStdString()), sensitive);
    }
};

QTEST_GUILESS_MAIN(EgressPolicyDecisions)
#include "tst_egress_policy_decisions.moc"
