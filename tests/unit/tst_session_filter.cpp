// SPDX-License-Identifier: Apache-2.0
// The session's request filter inside real intercepted TLS (curl through the
// proxy, python3's TLS server upstream): the HTTP rules allow, deny by
// default on a host that has rules, and hold an `ask` until the desk's
// answer; the secret swap puts the value only in the bound header of a
// request to the bound host, and refuses a placeholder anywhere else.
#include "egress/locked_secret.h"
#include "egress/secret_placeholder.h"
#include "egress/secret_swap.h"
#include "egress/tls/session_authority.h"
#include "egress/tls/upstream_tls.h"
#include "policy/http_rules.h"
#include "proxy_test_rig.h"
#include "session/session_filter.h"
#include "tls_test_upstream.h"

#include <boost/asio/post.hpp>

#include <QtTest>

#include <future>
#include <mutex>
#include <thread>

using proxy_rig::ProxyRig;
using tls_rig::Certificates;
using tls_rig::Upstream;
using nlohmann::json;

namespace {

constexpr const char* kSecretValue = "the-real-value-0f3c";

struct Recorded {
    std::string type;
    json data;
};

// A proxy intercepting every allowed CONNECT with a SessionRequestFilter
// built from rules and one secret, and an HttpAskDesk on the proxy's thread
// whose "parent" is the test.
class FilteringProxy {
public:
    FilteringProxy(const Certificates& certificates, const Upstream& upstream, const std::vector<std::string>& rules)
    {
        const std::string host = "127.0.0.1:" + std::to_string(upstream.port());
        std::vector<std::string> texts;
        for (const auto& rule : rules) {
            texts.push_back(QString::fromStdString(rule).replace("HOST", QString::fromStdString(host)).toStdString());
        }
        auto parsed = moat::HttpRuleSet::parse(texts);
        if (!parsed) {
            qFatal("%s", parsed.error().message().c_str());
        }
        auto ruleSet = std::make_shared<const moat::HttpRuleSet>(std::move(parsed.value()));
        auto value = moat::LockedSecret::copyOf(kSecretValue);
        auto binding = moat::makeSwapBinding("TOKEN", std::move(value.value()), {host}, {});
        placeholder = binding.value().placeholder;
        std::vector<moat::SwapBinding> bindings;
        bindings.push_back(std::move(binding.value()));
        auto swap = std::make_shared<const moat::SecretSwap>(std::move(moat::SecretSwap::create(std::move(bindings)).value()));

        moat::TlsInterception interception;
        interception.authority = moat::SessionAuthority::create().value();
        interception.upstreamTls = moat::UpstreamTls::create(certificates.caFile().toStdString()).value();
        interception.intercept = [this, ruleSet, swap](const std::string&, std::uint16_t)
            -> std::shared_ptr<moat::HttpExchangeFilter> {
            return std::make_shared<moat::SessionRequestFilter>(ruleSet, swap, desk.get(),
                                                                [this](const std::string& type, json data) {
                                                                    std::lock_guard lock(mutex);
                                                                    records.push_back({type, std::move(data)});
                                                                });
        };
        const std::string authority = upstream.authority();
        sessionCa = certificates.write("session-ca.pem", interception.authority->certificatePem());
        rig = std::make_unique<ProxyRig>([authority](std::uint16_t) { return std::vector<std::string>{authority}; },
                                         moat::ProxyLimits{}, std::move(interception));
        desk = std::make_unique<moat::HttpAskDesk>(
            rig->io(), "filter-rig", moat::HttpAskDesk::Options{std::chrono::seconds(20), 16},
            [this](const std::string& type, json data) {
                std::lock_guard lock(mutex);
                records.push_back({type, std::move(data)});
            },
            [this](const json& message) {
                std::lock_guard lock(mutex);
                asked.push_back(message);
                return true;
            },
            nullptr);
    }
    ~FilteringProxy()
    {
        // Whatever still waits is denied on the proxy's thread, then the
        // desk goes before the io_context its timers belong to.
        std::promise<void> closed;
        boost::asio::post(rig->io(), [this, &closed] {
            desk->closeAll();
            closed.set_value();
        });
        closed.get_future().wait();
        desk.reset();
        rig.reset();
    }

    tls_rig::Run curl(const Upstream& upstream, const QString& method, const QString& path, QStringList extra = {}) const
    {
        QStringList arguments{"-sS", "--max-time", "20", "--proxy", "http://127.0.0.1:" + QString::number(rig->httpPort()),
                              "--cacert", sessionCa, "-w", "%{http_code}\\n", "-X", method};
        arguments += extra;
        arguments << "https://127.0.0.1:" + QString::number(upstream.port()) + path;
        return tls_rig::run("curl", arguments);
    }

    // The test as moatd: answers the first question the desk put.
    bool answer(const std::string& decision)
    {
        json message;
        for (int i = 0; i < 200 && message.is_null(); ++i) {
            {
                std::lock_guard lock(mutex);
                if (!asked.empty()) {
                    message = asked.front();
                }
            }
            if (message.is_null()) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        }
        if (message.is_null()) {
            return false;
        }
        boost::asio::post(rig->io(), [this, message, decision] {
            desk->decide({{"t", "decision"}, {"rid", message["rid"]}, {"decision", decision}, {"by", {{"uid", 1000}}}});
        });
        return true;
    }

    std::vector<Recorded> recorded(const std::string& type)
    {
        std::lock_guard lock(mutex);
        std::vector<Recorded> found;
        for (const auto& record : records) {
            if (record.type == type) {
                found.push_back(record);
            }
        }
        return found;
    }

    std::string placeholder;
    QString sessionCa;
    std::unique_ptr<ProxyRig> rig;
    std::unique_ptr<moat::HttpAskDesk> desk;
    std::mutex mutex;
    std::vector<Recorded> records;
    std::vector<json> asked;
};

const std::vector<std::string> kRules = {"GET HOST /repos/o/r/** allow", "POST HOST /repos/o/r/issues/*/comments ask",
                                         "* HOST /admin/** deny"};

}  // namespace

class SessionFilter : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(certificates_.ok(), "the openssl command could not make the test certificates");
        if (QStandardPaths::findExecutable("curl").isEmpty()) {
            QSKIP("curl is not installed");
        }
    }

    void aRuleAllowsAndTheDefaultDenies()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        FilteringProxy proxy(certificates_, upstream, kRules);
        const auto allowed = proxy.curl(upstream, "GET", "/repos/o/r/issues");
        QCOMPARE(allowed.out, QByteArray("upstream saw GET /repos/o/r/issues\n200\n"));
        const auto other = proxy.curl(upstream, "GET", "/repos/o/other/issues");
        QVERIFY2(other.out.endsWith("403\n"), other.out.constData());
        QVERIFY2(other.out.contains("no rule allows"), other.out.constData());
        const auto denied = proxy.curl(upstream, "DELETE", "/admin/users/1");
        QVERIFY2(denied.out.endsWith("403\n"), denied.out.constData());
        QCOMPARE(upstream.requests().size(), 1);
    }

    void anAskIsHeldUntilAPersonAnswers_data()
    {
        QTest::addColumn<QString>("decision");
        QTest::addColumn<QByteArray>("status");
        QTest::addColumn<int>("reached");
        QTest::newRow("approved") << "approved" << QByteArray("200\n") << 1;
        QTest::newRow("denied") << "denied" << QByteArray("403\n") << 0;
    }

    void anAskIsHeldUntilAPersonAnswers()
    {
        QFETCH(QString, decision);
        QFETCH(QByteArray, status);
        QFETCH(int, reached);
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        FilteringProxy proxy(certificates_, upstream, kRules);
        tls_rig::Run result;
        std::thread agent([&] { result = proxy.curl(upstream, "POST", "/repos/o/r/issues/1/comments", {"-d", "hi"}); });
        const bool asked = proxy.answer(decision.toStdString());
        agent.join();
        QVERIFY2(asked, "the desk never asked");
        QVERIFY2(result.out.endsWith(status), result.out.constData());
        QCOMPARE(upstream.requests().size(), reached);
        const auto decisions = proxy.recorded("approval.decision");
        QCOMPARE(decisions.size(), std::size_t(1));
        QVERIFY(decisions[0].data["decision"] == decision.toStdString());
        QVERIFY(decisions[0].data["by"]["uid"] == 1000);
    }

    void theSecretIsSwappedOnlyWhereItIsBound()
    {
        Upstream upstream(certificates_.certificate("good"), certificates_.key("good"));
        FilteringProxy proxy(certificates_, upstream, kRules);
        const QString placeholder = QString::fromStdString(proxy.placeholder);
        const auto used = proxy.curl(upstream, "GET", "/repos/o/r", {"-H", "Authorization: Bearer " + placeholder});
        QVERIFY2(used.out.endsWith("200\n"), used.out.constData());
        QCOMPARE(upstream.requests().size(), 1);
        QCOMPARE(Upstream::header(upstream.requests()[0], "Authorization"), QString("Bearer ") + kSecretValue);
        QCOMPARE(proxy.recorded("secret.use").size(), std::size_t(1));

        // The placeholder in a header it is not bound to: refused, recorded, never sent.
        const auto leaked = proxy.curl(upstream, "GET", "/repos/o/r", {"-H", "X-Debug: " + placeholder});
        QVERIFY2(leaked.out.endsWith("403\n"), leaked.out.constData());
        QCOMPARE(upstream.requests().size(), 1);
        const auto leaks = proxy.recorded("secret.leak_attempt");
        QCOMPARE(leaks.size(), std::size_t(1));
        QVERIFY(leaks[0].data["secret"] == "TOKEN");
        // Nothing recorded holds the value.
        std::lock_guard lock(proxy.mutex);
        for (const auto& record : proxy.records) {
            QVERIFY(record.data.dump().find(kSecretValue) == std::string::npos);
        }
    }

private:
    Certificates certificates_;
};

QTEST_GUILESS_MAIN(SessionFilter)
#include "tst_session_filter.moc"
