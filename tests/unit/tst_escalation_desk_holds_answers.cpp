// SPDX-License-Identifier: Apache-2.0
// POST $MOAT_API/v1/requests through the real proxy and the supervisor's
// EscalationDesk: the agent's answer is held until the parent decides or the
// deadline passes, other connections are served meanwhile, bodies are
// bounded (413) and checked (400), embedded mode answers 503 at once, and
// every request and decision is recorded with who decided.
#include "proxy_test_rig.h"
#include "session/escalation_desk.h"

#include <QTest>

#include <deque>

using namespace proxy_rig;
using nlohmann::json;

namespace {

struct Recorded {
    std::string type;
    json data;
};

// The proxy and a desk on one io_context thread, as in the supervisor; the
// test plays the agent (sockets) and the parent (decisions posted to it).
class DeskRig {
public:
    explicit DeskRig(bool parentDecides, std::size_t maxPending = 16)
    {
        auto http = listenOnLoopback(httpPort_);
        std::uint16_t socksPort = 0;
        auto socks = listenOnLoopback(socksPort);
        moat::EscalationDesk::Options deskOptions;
        deskOptions.parentDecides = parentDecides;
        deskOptions.maxPending = maxPending;
        desk_ = std::make_unique<moat::EscalationDesk>(
            io_, "rig-session", deskOptions,
            [this](const std::string& type, json data) {
                std::lock_guard lock(mutex_);
                records_.push_back({type, std::move(data)});
            },
            [this](const json& message) {
                std::lock_guard lock(mutex_);
                sent_.push_back(message);
                return true;
            });
        moat::EgressProxyOptions options;
        options.sessionInfo = [] { return json{{"id", "rig-session"}}; };
        options.escalate = [this](std::string_view query, std::string body, moat::ControlAnswer answer) {
            desk_->submit(query, body, std::move(answer));
        };
        proxy_ = std::make_unique<moat::EgressProxy>(io_, std::move(http), std::move(socks), std::move(options));
        proxy_->start();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~DeskRig()
    {
        io_.stop();
        thread_.join();
        proxy_.reset();
        desk_.reset();
    }

    std::uint16_t port() const { return httpPort_; }
    void decide(const json& message)
    {
        std::promise<void> done;
        boost::asio::post(io_, [&] {
            desk_->decide(message);
            done.set_value();
        });
        done.get_future().get();
    }
    // The next "request" message to the parent, waiting for it.
    json nextRequest(std::chrono::milliseconds timeout = std::chrono::milliseconds(3000))
    {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeout.count()) {
            {
                std::lock_guard lock(mutex_);
                if (!sent_.empty()) {
                    json message = sent_.front();
                    sent_.pop_front();
                    return message;
                }
            }
            QTest::qWait(10);
        }
        return {};
    }
    std::vector<Recorded> records() const
    {
        std::lock_guard lock(mutex_);
        return records_;
    }

private:
    boost::asio::io_context io_;
    std::unique_ptr<moat::EscalationDesk> desk_;
    std::unique_ptr<moat::EgressProxy> proxy_;
    std::thread thread_;
    std::uint16_t httpPort_ = 0;
    mutable std::mutex mutex_;
    std::vector<Recorded> records_;
    std::deque<json> sent_;
};

QByteArray post(const QByteArray& body, const QByteArray& path = "/v1/requests")
{
    return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " +
           QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

int statusOf(const QByteArray& response)
{
    return response.startsWith("HTTP/1.1 ") ? response.mid(9, 3).toInt() : -1;
}

json bodyOf(const QByteArray& response)
{
    const auto start = response.indexOf("\r\n\r\n");
    return json::parse(response.mid(start + 4).toStdString(), nullptr, false);
}

const QByteArray kSudo = R"({"sudo":true,"reason":"apt-get install"})";
constexpr std::chrono::milliseconds kQuick{3000};

}  // namespace

class EscalationDeskHoldsAnswers : public QObject {
    Q_OBJECT

private slots:
    void approvalIsHeldAndOthersAreServed();
    void denialCarriesWhoDecided();
    void deadlinePassesAs408();
    void malformedBodyIs400AndNotRecorded();
    void oversizedBodyIs413();
    void embeddedAnswers503AtOnce();
    void pendingRequestsAreBounded();
    void unknownRidIsIgnored();
};

void EscalationDeskHoldsAnswers::approvalIsHeldAndOthersAreServed()
{
    DeskRig rig(true);
    auto agent = connectTo(rig.port());
    QVERIFY(sendAll(agent.get(), post(kSudo)));
    const json request = rig.nextRequest();
    QCOMPARE(request.value("t", ""), std::string("request"));
    const std::string rid = request.value("rid", "");
    QVERIFY(rid.size() == 14 && rid.rfind("r-", 0) == 0);
    QVERIFY(request["request"]["sudo"] == json(true));
    QVERIFY(request["timeout_seconds"] == json(120));

    // Held: nothing comes back yet, and another connection is served.
    QVERIFY(receive(agent.get(), std::chrono::milliseconds(300)).isEmpty());
    auto other = connectTo(rig.port());
    QVERIFY(sendAll(other.get(), "GET /v1/session HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
    QCOMPARE(statusOf(receive(other.get(), kQuick)), 200);

    rig.decide({{"t", "decision"},
                {"rid", rid},
                {"decision", "approved"},
                {"by", {{"uid", 1000}, {"user", "alice"}, {"client", "cli"}}},
                {"successor", true}});
    const QByteArray answer = receive(agent.get(), kQuick, "}\n");
    QCOMPARE(statusOf(answer), 200);
    const json body = bodyOf(answer);
    QVERIFY(body["rid"] == json(rid));
    QVERIFY(body["decision"] == json("approved"));
    QVERIFY(body["successor"] == json(true));

    const auto records = rig.records();
    QCOMPARE(records.size(), size_t(2));
    QCOMPARE(records[0].type, std::string("approval.request"));
    QVERIFY(records[0].data["reason"] == json("apt-get install"));
    QVERIFY(records[0].data["flags"] == json({"--sudo"}));
    QCOMPARE(records[1].type, std::string("approval.decision"));
    QVERIFY(records[1].data["by"]["user"] == json("alice"));
    QVERIFY(records[1].data["decision"] == json("approved"));
}

void EscalationDeskHoldsAnswers::denialCarriesWhoDecided()
{
    DeskRig rig(true);
    auto agent = connectTo(rig.port());
    QVERIFY(sendAll(agent.get(), post(R"({"allow_hosts":["pypi.org"]})")));
    const std::string rid = rig.nextRequest().value("rid", "");
    rig.decide({{"t", "decision"},
                {"rid", rid},
                {"decision", "denied"},
                {"by", {{"policy", "deny"}}},
                {"reason", "policy.toml denies it"}});
    const QByteArray answer = receive(agent.get(), kQuick, "}\n");
    QCOMPARE(statusOf(answer), 403);
    QVERIFY(bodyOf(answer)["reason"] == json("policy.toml denies it"));
    QVERIFY(bodyOf(answer)["by"]["policy"] == json("deny"));
    // Decided once: a second decision changes nothing.
    rig.decide({{"t", "decision"}, {"rid", rid}, {"decision", "approved"}, {"by", {{"policy", "auto"}}}});
    QCOMPARE(rig.records().size(), size_t(2));
}

void EscalationDeskHoldsAnswers::deadlinePassesAs408()
{
    DeskRig rig(true);
    auto agent = connectTo(rig.port());
    QElapsedTimer clock;
    clock.start();
    QVERIFY(sendAll(agent.get(), post(kSudo, "/v1/requests?timeout=1")));
    QVERIFY(rig.nextRequest()["timeout_seconds"] == json(1));
    const QByteArray answer = receive(agent.get(), std::chrono::milliseconds(5000), "}\n");
    QCOMPARE(statusOf(answer), 408);
    QVERIFY(bodyOf(answer)["decision"] == json("timed_out"));
    QVERIFY(clock.elapsed() >= 900);
    const auto records = rig.records();
    QCOMPARE(records.back().type, std::string("approval.decision"));
    QVERIFY(records.back().data["by"]["policy"] == json("deadline"));

    for (const char* path : {"/v1/requests?timeout=0", "/v1/requests?timeout=601", "/v1/requests?timeout=x"}) {
        auto again = connectTo(rig.port());
        QVERIFY(sendAll(again.get(), post(kSudo, path)));
        QCOMPARE(statusOf(receive(again.get(), kQuick, "}\n")), 400);
    }
}

void EscalationDeskHoldsAnswers::malformedBodyIs400AndNotRecorded()
{
    DeskRig rig(true);
    for (const QByteArray& body : {QByteArray("{not json"), QByteArray(R"({"sudo":"yes"})"), QByteArray("{}"),
                                   QByteArray(R"({"allow_hosts":["evil.org/x"]})")}) {
        auto agent = connectTo(rig.port());
        QVERIFY(sendAll(agent.get(), post(body)));
        const QByteArray answer = receive(agent.get(), kQuick, "}\n");
        QCOMPARE(statusOf(answer), 400);
        QVERIFY(bodyOf(answer).contains("error"));
    }
    QVERIFY(rig.records().empty());
}

void EscalationDeskHoldsAnswers::oversizedBodyIs413()
{
    DeskRig rig(true);
    const QByteArray big = R"({"sudo":true,"reason":")" + QByteArray(70 * 1024, 'x') + R"("})";
    auto declared = connectTo(rig.port());
    QVERIFY(sendAll(declared.get(), post(big).left(200)));  // the head says it all
    QCOMPARE(statusOf(receive(declared.get(), kQuick, "}\n")), 413);

    auto chunked = connectTo(rig.port());
    QByteArray request = "POST /v1/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n";
    request += QByteArray::number(big.size(), 16) + "\r\n" + big + "\r\n0\r\n\r\n";
    (void)sendAll(chunked.get(), request);
    QCOMPARE(statusOf(receive(chunked.get(), kQuick, "}\n")), 413);
    QVERIFY(rig.records().empty());
}

void EscalationDeskHoldsAnswers::embeddedAnswers503AtOnce()
{
    DeskRig rig(false);
    auto agent = connectTo(rig.port());
    QVERIFY(sendAll(agent.get(), post(kSudo)));
    const QByteArray answer = receive(agent.get(), kQuick, "}\n");
    QCOMPARE(statusOf(answer), 503);
    QVERIFY(bodyOf(answer)["decision"] == json("denied"));
    const auto records = rig.records();
    QCOMPARE(records.size(), size_t(2));
    QVERIFY(records[1].data["by"]["policy"] == json("embedded"));
    QVERIFY(rig.nextRequest(std::chrono::milliseconds(100)).is_null());  // nobody to send it to
}

void EscalationDeskHoldsAnswers::pendingRequestsAreBounded()
{
    DeskRig rig(true, 2);
    std::vector<moat::UniqueFd> agents;
    for (int i = 0; i < 2; ++i) {
        agents.push_back(connectTo(rig.port()));
        QVERIFY(sendAll(agents.back().get(), post(kSudo)));
        QVERIFY(!rig.nextRequest().is_null());
    }
    auto third = connectTo(rig.port());
    QVERIFY(sendAll(third.get(), post(kSudo)));
    QCOMPARE(statusOf(receive(third.get(), kQuick, "}\n")), 429);
}

void EscalationDeskHoldsAnswers::unknownRidIsIgnored()
{
    DeskRig rig(true);
    rig.decide({{"t", "decision"}, {"rid", "r-000000000000"}, {"decision", "approved"}});
    rig.decide({{"t", "decision"}, {"rid", 5}, {"decision", "approved"}});
    QVERIFY(rig.records().empty());
}

QTEST_GUILESS_MAIN(EscalationDeskHoldsAnswers)
#include "tst_escalation_desk_holds_answers.moc"
