// SPDX-License-Identifier: Apache-2.0
// The secret swap (core/egress/secret_swap.h): a placeholder becomes the real
// value only in the headers a secret is bound to, of requests to its hosts,
// over TLS; anywhere else the request is refused, naming the secret and never
// its value. LockedSecret keeps values in locked, undumpable memory that a
// forked child cannot read.
#include "egress/basic_credentials.h"
#include "egress/locked_secret.h"
#include "egress/secret_events.h"
#include "egress/secret_names.h"
#include "egress/secret_placeholder.h"
#include "egress/secret_swap.h"

#include <QRegularExpression>
#include <QTest>

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

using namespace moat;

namespace {

const std::string kGithubValue = "ghp_R3alV4lueThatMustNeverBeSeen0123456789";
const std::string kOpenAiValue = "sk-an0therReal-value-OPENAI-xyz";

// Every string the swap produced, for the "never the value" checks.
std::vector<std::string> produced;

LockedSecret locked(const std::string& value)
{
    auto secret = LockedSecret::copyOf(value);
    if (!secret) {
        qFatal("LockedSecret::copyOf: %s", secret.error().message().c_str());
    }
    return std::move(secret.value());
}

HostPattern host(const char* text)
{
    return HostPattern::parse(text).value();
}

SwapBinding binding(const std::string& name, const std::string& value, std::vector<HostPattern> hosts,
                    std::vector<std::string> headers = {})
{
    return {name, makeSecretPlaceholder(name).value(), locked(value), std::move(hosts), std::move(headers)};
}

// GITHUB_TOKEN for api.github.com (Authorization, the default);
// OPENAI_KEY for api.openai.com in X-Api-Key and Authorization.
SecretSwap twoSecrets()
{
    std::vector<SwapBinding> bindings;
    bindings.push_back(binding("GITHUB_TOKEN", kGithubValue, {host("api.github.com")}));
    bindings.push_back(binding("OPENAI_KEY", kOpenAiValue, {host("api.openai.com")}, {"X-Api-Key", "Authorization"}));
    auto swap = SecretSwap::create(std::move(bindings));
    if (!swap) {
        qFatal("SecretSwap::create: %s", swap.error().message().c_str());
    }
    return std::move(swap.value());
}

std::string placeholderOf(const SecretSwap& swap, const std::string& name)
{
    for (const auto& b : swap.bindings()) {
        if (b.name == name) {
            return b.placeholder;
        }
    }
    return {};
}

SwapVerdict run(const SecretSwap& swap, std::vector<HeaderField>& headers, const char* to = "api.github.com",
                std::string_view target = "/user", std::string_view body = {}, bool encrypted = true,
                uint16_t port = 443)
{
    SwapVerdict verdict = swap.apply({to, port, encrypted, target, &headers, body});
    produced.push_back(verdict.secret);
    produced.push_back(verdict.where);
    produced.push_back(verdict.reason);
    for (const auto& use : verdict.used) {
        produced.push_back(use.secret);
        produced.insert(produced.end(), use.headers.begin(), use.headers.end());
        produced.push_back(secretUseData(use, to, port).dump());
    }
    if (verdict.refused) {
        produced.push_back(secretLeakAttemptData(verdict, to, port).dump());
    }
    return verdict;
}

std::string headerValue(const std::vector<HeaderField>& headers, const std::string& name)
{
    for (const auto& field : headers) {
        if (field.name == name) {
            return field.value;
        }
    }
    return {};
}

std::string base64(const std::string& text)
{
    return encodeBasicCredentials(text).substr(6);
}

// A field of /proc/self/status, in kB.
long statusKb(const char* field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind(field, 0) == 0) {
            return std::stol(line.substr(std::string(field).size()));
        }
    }
    return -1;
}

// The VmFlags of the mapping that holds `address` (/proc/self/smaps).
std::string vmFlagsOf(const void* address)
{
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    const auto at = reinterpret_cast<uintptr_t>(address);
    while (std::getline(smaps, line)) {
        unsigned long start = 0;
        unsigned long end = 0;
        // A mapping's first line starts "start-end "; its fields "Name: ...".
        if (std::sscanf(line.c_str(), "%lx-%lx ", &start, &end) == 2) {
            inside = at >= start && at < end;
            continue;
        }
        if (inside && line.rfind("VmFlags:", 0) == 0) {
            return line;
        }
    }
    return {};
}

}  // namespace

class SecretSwapTest : public QObject {
    Q_OBJECT

private slots:
    void aBoundHeaderToABoundHostGetsTheValue()
    {
        const SecretSwap swap = twoSecrets();
        std::vector<HeaderField> headers{{"Host", "api.github.com"},
                                         {"Authorization", "Bearer " + placeholderOf(swap, "GITHUB_TOKEN")},
                                         {"Accept", "*/*"}};
        const SwapVerdict verdict = run(swap, headers);
        QVERIFY(!verdict.refused);
        QCOMPARE(headerValue(headers, "Authorization"), "Bearer " + kGithubValue);
        QCOMPARE(headerValue(headers, "Host"), std::string("api.github.com"));
        QCOMPARE(verdict.used.size(), size_t(1));
        QCOMPARE(verdict.used[0].secret, std::string("GITHUB_TOKEN"));
        QCOMPARE(verdict.used[0].headers, std::vector<std::string>{"Authorization"});
    }

    void headerNamesAndHostsMatchInAnyCase()
    {
        const SecretSwap swap = twoSecrets();
        std::vector<HeaderField> headers{{"x-API-key", placeholderOf(swap, "OPENAI_KEY")}};
        const SwapVerdict verdict = run(swap, headers, "API.OpenAI.com.");
        QVERIFY2(!verdict.refused, verdict.reason.c_str());
        QCOMPARE(headerValue(headers, "x-API-key"), kOpenAiValue);
        QCOMPARE(verdict.used[0].headers, std::vector<std::string>{"x-API-key"});
    }

    void aRequestWithoutPlaceholdersPassesUntouched()
    {
        const SecretSwap swap = twoSecrets();
        std::vector<HeaderField> headers{{"Authorization", "Bearer something-else"}, {"User-Agent", "curl/7.88"}};
        const auto before = headers;
        const SwapVerdict verdict = run(swap, headers, "example.com");
        QVERIFY(!verdict.refused);
        QVERIFY(verdict.used.empty());
        QCOMPARE(headers[0].value, before[0].value);
    }

    void basicCredentialsAreDecodedSwappedAndEncoded_data()
    {
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("scheme");
        QTest::newRow("in the password") << "x-access-token" << "PH" << "Basic";
        QTest::newRow("in the user") << "PH" << "x-oauth-basic" << "Basic";
        QTest::newRow("both, scheme in lower case") << "PH" << "PH" << "basic";
    }

    void basicCredentialsAreDecodedSwappedAndEncoded()
    {
        QFETCH(QString, user);
        QFETCH(QString, password);
        QFETCH(QString, scheme);
        const SecretSwap swap = twoSecrets();
        const QString placeholder = QString::fromStdString(placeholderOf(swap, "GITHUB_TOKEN"));
        const std::string sent = QString(user + ":" + password).replace("PH", placeholder).toStdString();
        std::vector<HeaderField> headers{{"Authorization", scheme.toStdString() + " " + base64(sent)}};
        const SwapVerdict verdict = run(swap, headers, "api.github.com", "/repo.git/info/refs");
        QVERIFY2(!verdict.refused, verdict.reason.c_str());
        const auto decoded = decodeBasicCredentials(headerValue(headers, "Authorization"));
        QVERIFY(decoded);
        const QString real = QString::fromStdString(kGithubValue);
        QCOMPARE(QString::fromStdString(*decoded), QString(user + ":" + password).replace("PH", real));
        QCOMPARE(verdict.used.size(), size_t(1));
    }

    void aPlaceholderAnywhereElseRefusesTheWholeRequest_data()
    {
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("value");  // PH: GITHUB_TOKEN's placeholder, ph: in lower... (same)
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("body");
        QTest::addColumn<bool>("encrypted");
        QTest::addColumn<QString>("where");

        QTest::newRow("bound header, another host")
            << "evil.example" << "Authorization" << "Bearer PH" << "/" << "" << true << "header Authorization";
        QTest::newRow("bound header, a subdomain of the host")
            << "x.api.github.com" << "Authorization" << "Bearer PH" << "/" << "" << true << "header Authorization";
        QTest::newRow("bound host, unbound header")
            << "api.github.com" << "X-Debug" << "PH" << "/" << "" << true << "header X-Debug";
        QTest::newRow("bound host, port not covered")
            << "api.github.com:8443" << "Authorization" << "Bearer PH" << "/" << "" << true << "header Authorization";
        QTest::newRow("in the clear")
            << "api.github.com:80" << "Authorization" << "Bearer PH" << "/" << "" << false << "header Authorization";
        QTest::newRow("in the request target")
            << "api.github.com" << "Accept" << "*/*" << "/search?q=PH" << "" << true << "request target";
        QTest::newRow("percent-encoded in the target")
            << "api.github.com" << "Accept" << "*/*" << "/x?t=ENC" << "" << true << "request target";
        QTest::newRow("in an absolute target")
            << "evil.example" << "Accept" << "*/*" << "http://evil.example/PH" << "" << true << "request target";
        QTest::newRow("in the body")
            << "api.github.com" << "Accept" << "*/*" << "/gists" << "{\"content\":\"PH\"}" << true << "body";
        QTest::newRow("in upper case, another header")
            << "evil.example" << "X-Token" << "UPPER" << "/" << "" << true << "header X-Token";
        QTest::newRow("basic credentials, another host")
            << "evil.example" << "Authorization" << "BASIC" << "/" << "" << true << "header Authorization";
        QTest::newRow("proxy credentials to the proxy")
            << "api.github.com" << "Proxy-Authorization" << "BASIC" << "/" << "" << true
            << "header Proxy-Authorization";
        QTest::newRow("as a header's name")
            << "api.github.com" << "PH" << "1" << "/" << "" << true << "header name";
    }

    void aPlaceholderAnywhereElseRefusesTheWholeRequest()
    {
        QFETCH(QString, to);
        QFETCH(QString, header);
        QFETCH(QString, value);
        QFETCH(QString, target);
        QFETCH(QString, body);
        QFETCH(bool, encrypted);
        QFETCH(QString, where);
        const SecretSwap swap = twoSecrets();
        const QString ph = QString::fromStdString(placeholderOf(swap, "GITHUB_TOKEN"));
        QString encoded;
        for (QChar c : ph) {
            encoded += QStringLiteral("%%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        }
        const auto fill = [&](QString text) {
            return text.replace("UPPER", ph.toUpper())
                .replace("BASIC", "Basic " + QString::fromStdString(base64("u:" + ph.toStdString())))
                .replace("ENC", encoded)
                .replace("PH", ph)
                .toStdString();
        };
        // A placeholder of the other secret, correctly placed, must not be
        // swapped into a request that is refused.
        std::vector<HeaderField> headers{{fill(header), fill(value)},
                                         {"Authorization", "Bearer " + placeholderOf(swap, "OPENAI_KEY")}};
        if (header == "Authorization") {
            headers.pop_back();
        }
        const auto before = headers;
        const QStringList hostPort = to.split(':');
        const std::string hostName = hostPort[0].toStdString();
        const uint16_t port = hostPort.size() > 1 ? hostPort[1].toUShort() : 443;
        const std::string targetText = fill(target);
        const std::string bodyText = fill(body);
        const SwapVerdict verdict =
            run(swap, headers, hostName.c_str(), targetText, bodyText, encrypted, port);
        QVERIFY(verdict.refused);
        QCOMPARE(verdict.secret, std::string("GITHUB_TOKEN"));
        QCOMPARE(QString::fromStdString(verdict.where), where);
        QVERIFY(verdict.used.empty());
        QVERIFY2(verdict.reason.find("GITHUB_TOKEN") != std::string::npos, verdict.reason.c_str());
        for (size_t i = 0; i < headers.size(); ++i) {
            QCOMPARE(headers[i].value, before[i].value);
        }
    }

    void eachSecretOnlyToItsOwnHosts()
    {
        const SecretSwap swap = twoSecrets();
        // Both placeholders, each in a header of its own, to GitHub: OPENAI_KEY is not for GitHub.
        std::vector<HeaderField> headers{{"Authorization", "token " + placeholderOf(swap, "GITHUB_TOKEN")},
                                         {"X-Api-Key", placeholderOf(swap, "OPENAI_KEY")}};
        const SwapVerdict refused = run(swap, headers, "api.github.com");
        QVERIFY(refused.refused);
        QCOMPARE(refused.secret, std::string("OPENAI_KEY"));
        QVERIFY(headerValue(headers, "Authorization").find(kGithubValue) == std::string::npos);
    }

    void twoSecretsForOneHostAreBothSwapped()
    {
        std::vector<SwapBinding> bindings;
        bindings.push_back(binding("USER_TOKEN", kGithubValue, {host("*.example.com")}, {"Authorization"}));
        bindings.push_back(binding("APP_KEY", kOpenAiValue, {host("api.example.com")}, {"X-App-Key", "Authorization"}));
        auto swap = SecretSwap::create(std::move(bindings));
        QVERIFY(swap);
        const std::string user = placeholderOf(*swap, "USER_TOKEN");
        const std::string app = placeholderOf(*swap, "APP_KEY");
        std::vector<HeaderField> headers{{"authorization", "Basic " + base64(user + ":" + app)},
                                         {"X-App-Key", app + "," + app}};
        const SwapVerdict verdict = run(*swap, headers, "api.example.com");
        QVERIFY2(!verdict.refused, verdict.reason.c_str());
        QCOMPARE(*decodeBasicCredentials(headerValue(headers, "authorization")), kGithubValue + ":" + kOpenAiValue);
        QCOMPARE(headerValue(headers, "X-App-Key"), kOpenAiValue + "," + kOpenAiValue);
        QCOMPARE(verdict.used.size(), size_t(2));
        QCOMPARE(verdict.used[0].secret, std::string("USER_TOKEN"));
        QCOMPARE(verdict.used[1].secret, std::string("APP_KEY"));
        QCOMPARE(verdict.used[1].headers, (std::vector<std::string>{"authorization", "X-App-Key"}));
        QVERIFY(swap->bindsHost("a.example.com", 443));
        QVERIFY(!swap->bindsHost("example.com", 443));
    }

    void bindingsThatCannotBeAppliedSafelyAreRefused_data()
    {
        QTest::addColumn<int>("flaw");
        QTest::newRow("no host") << 0;
        QTest::newRow("a CR LF in the value") << 1;
        QTest::newRow("a placeholder of another shape") << 2;
        QTest::newRow("a bad header name") << 3;
        QTest::newRow("the same secret twice") << 4;
        QTest::newRow("a bad name") << 5;
    }

    void bindingsThatCannotBeAppliedSafelyAreRefused()
    {
        QFETCH(int, flaw);
        std::vector<SwapBinding> bindings;
        bindings.push_back(binding("TOKEN", kGithubValue, {host("api.github.com")}));
        SwapBinding& b = bindings.back();
        switch (flaw) {
            case 0: b.hosts.clear(); break;
            case 1: b.value = locked(kGithubValue + "\r\nX-Evil: 1"); break;
            case 2: b.placeholder = "moat-placeholder-TOKEN-xyz"; break;
            case 3: b.headers = {"Bad Header"}; break;
            case 4: bindings.push_back(binding("TOKEN", kOpenAiValue, {host("a.example")})); break;
            case 5: b.name = "1TOKEN"; break;
        }
        auto swap = SecretSwap::create(std::move(bindings));
        QVERIFY(!swap);
        produced.push_back(swap.error().message());
    }

    void aBindingIsMadeFromWhatTheKeychainGave()
    {
        auto made = makeSwapBinding("TOKEN", locked(kGithubValue), {"api.github.com", "*.example.com:8443"}, {});
        QVERIFY(made);
        QCOMPARE(made->hosts.size(), size_t(2));
        QVERIFY(made->placeholder.rfind("moat-placeholder-TOKEN-", 0) == 0);
        std::vector<SwapBinding> bindings;
        bindings.push_back(std::move(made.value()));
        QVERIFY(SecretSwap::create(std::move(bindings)));
        auto bad = makeSwapBinding("TOKEN", locked(kGithubValue), {"https://api.github.com/"}, {});
        QVERIFY(!bad);
        produced.push_back(bad.error().message());
    }

    void theDefaultHeaderIsAuthorization()
    {
        std::vector<SwapBinding> bindings;
        bindings.push_back(binding("TOKEN", kGithubValue, {host("api.github.com")}));
        auto swap = SecretSwap::create(std::move(bindings));
        QVERIFY(swap);
        QCOMPARE(swap->bindings()[0].headers, std::vector<std::string>{"Authorization"});
    }

    void placeholdersAreUnguessableAndPerCall()
    {
        const std::string first = makeSecretPlaceholder("GITHUB_TOKEN").value();
        const std::string second = makeSecretPlaceholder("GITHUB_TOKEN").value();
        QVERIFY(first != second);
        const QRegularExpression shape(QStringLiteral("^moat-placeholder-GITHUB_TOKEN-[0-9a-f]{32}$"));
        QVERIFY2(shape.match(QString::fromStdString(first)).hasMatch(), first.c_str());
        QVERIFY(!makeSecretPlaceholder("BAD-NAME"));
    }

    void valuesThatAreNotHeaderValuesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("token") << QByteArray("ghp_abc123") << true;
        QTest::newRow("utf-8") << QByteArray("p\xc3\xa4ss") << true;
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("newline") << QByteArray("abc\ndef") << false;
        QTest::newRow("nul") << QByteArray("abc\0def", 7) << false;
        QTest::newRow("tab") << QByteArray("abc\tdef") << false;
        QTest::newRow("leading space") << QByteArray(" abc") << false;
        QTest::newRow("bad utf-8") << QByteArray("abc\xff") << false;
        QTest::newRow("truncated utf-8") << QByteArray("abc\xc3") << false;
        QTest::newRow("too long") << QByteArray(64 * 1024 + 1, 'a') << false;
        QTest::newRow("longest") << QByteArray(64 * 1024, 'a') << true;
    }

    void valuesThatAreNotHeaderValuesAreRefused()
    {
        QFETCH(QByteArray, value);
        QFETCH(bool, accepted);
        const Status checked = checkSecretValue(std::string_view(value.constData(), size_t(value.size())));
        QCOMPARE(checked.ok(), accepted);
        if (!checked.ok() && value.size() > 3) {
            QVERIFY(checked.error().message().find(value.mid(0, 3).toStdString()) == std::string::npos);
        }
    }

    void theEventsNameTheSecretNeverTheValue()
    {
        const SecretSwap swap = twoSecrets();
        std::vector<HeaderField> headers{{"Authorization", "Bearer " + placeholderOf(swap, "GITHUB_TOKEN")}};
        const SwapVerdict used = run(swap, headers);
        const auto data = secretUseData(used.used[0], "api.github.com", 443);
        QCOMPARE(data.dump(), std::string(R"({"headers":["Authorization"],"host":"api.github.com","port":443,)"
                                          R"("secret":"GITHUB_TOKEN"})"));
        std::vector<HeaderField> leaking{{"Authorization", "Bearer " + placeholderOf(swap, "GITHUB_TOKEN")}};
        const SwapVerdict refused = run(swap, leaking, "evil.example");
        const auto leak = secretLeakAttemptData(refused, "evil.example", 443);
        QCOMPARE(leak["secret"].get<std::string>(), std::string("GITHUB_TOKEN"));
        QCOMPARE(leak["where"].get<std::string>(), std::string("header Authorization"));
        QCOMPARE(leak["host"].get<std::string>(), std::string("evil.example"));
        QVERIFY(leak["reason"].get<std::string>().find("api.github.com") != std::string::npos);
    }

    void lockedSecretsAreLockedUndumpableAndWipedOnFork()
    {
        const long before = statusKb("VmLck:");
        QVERIFY(before >= 0);
        {
            LockedSecret secret = locked(kGithubValue);
            QCOMPARE(std::string(secret.view()), kGithubValue);
            QVERIFY(secret.lockedBytes() >= secret.size());
#if !defined(__SANITIZE_ADDRESS__)
            // AddressSanitizer turns mlock(2) into a no-op: VmLck and the
            // "lo" flag are only checked in an ordinary build.
            QCOMPARE(statusKb("VmLck:"), before + long(secret.lockedBytes() / 1024));
#endif
            const std::string flags = vmFlagsOf(secret.view().data());
#if !defined(__SANITIZE_ADDRESS__)
            QVERIFY2(flags.find(" lo") != std::string::npos, flags.c_str());  // locked
#endif
            QVERIFY2(flags.find(" dd") != std::string::npos, flags.c_str());  // not in core dumps
            QVERIFY2(flags.find(" wf") != std::string::npos, flags.c_str());  // wiped on fork

            const pid_t child = ::fork();
            if (child == 0) {
                bool zeros = true;
                for (char c : secret.view()) {
                    zeros = zeros && c == '\0';
                }
                ::_exit(zeros ? 0 : 1);
            }
            int status = 0;
            QCOMPARE(::waitpid(child, &status, 0), child);
            QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a forked child could read the value");

            LockedSecret moved = std::move(secret);
            QCOMPARE(secret.size(), size_t(0));
            QCOMPARE(std::string(moved.view()), kGithubValue);
#if !defined(__SANITIZE_ADDRESS__)
            QCOMPARE(statusKb("VmLck:"), before + long(moved.lockedBytes() / 1024));
#endif
        }
        QCOMPARE(statusKb("VmLck:"), before);
    }

    void transientCopiesAreWiped()
    {
        std::string copy = kGithubValue;
        const char* bytes = copy.data();
        const size_t length = copy.size();
        auto secret = LockedSecret::takeFrom(copy);
        QVERIFY(secret);
        QVERIFY(copy.empty());
        for (size_t i = 0; i < length; ++i) {
            QCOMPARE(bytes[i], '\0');
        }
    }

    void noValueInAnyStringTheSwapProduced()
    {
        // Runs last: everything the tests above made the swap say.
        QVERIFY(produced.size() > 40);
        for (const std::string& text : produced) {
            for (const std::string& value : {kGithubValue, kOpenAiValue, base64(kGithubValue).substr(0, 16)}) {
                QVERIFY2(text.find(value) == std::string::npos, text.c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(SecretSwapTest)
#include "tst_secret_swap.moc"
