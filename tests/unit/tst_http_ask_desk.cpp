// SPDX-License-Identifier: Apache-2.0
// The desk that holds a request an `ask` rule caught: answered once, by the
// parent (moatd) or at the terminal in embedded mode, denied at the deadline,
// when nobody can be asked, when too many wait, or when the session ends; and
// every question and decision recorded with who decided.
#include "session/http_ask_desk.h"

#include <QTest>

#include <optional>
#include <thread>

using moat::HttpAskDesk;
using nlohmann::json;

namespace {

struct Recorded {
    std::string type;
    json data;
};

class DeskRig {
public:
    struct Setup {
        bool parent = true;         // a parent link exists
        bool parentAttached = true; // send succeeds
        bool terminal = false;
        std::chrono::seconds timeout{60};
        std::size_t maxPending = 16;
    };

    explicit DeskRig(Setup setup) : setup_(setup)
    {
        HttpAskDesk::SendToParent send;
        if (setup.parent) {
            send = [this](const json& message) {
                sent.push_back(message);
                return setup_.parentAttached;
            };
        }
        HttpAskDesk::AskTerminal terminal;
        if (setup.terminal) {
            terminal = [this](const std::string& rid, const std::string& text, std::function<void(bool)> reply) {
                asked.push_back(rid + ": " + text);
                replies.push_back(std::move(reply));
                return true;
            };
        }
        desk = std::make_unique<HttpAskDesk>(
            io, "rig", HttpAskDesk::Options{setup.timeout, setup.maxPending},
            [this](const std::string& type, json data) { records.push_back({type, std::move(data)}); }, send,
            terminal);
    }

    // Asks, and returns where the answer will land.
    std::shared_ptr<std::optional<HttpAskDesk::Decision>> ask(HttpAskDesk::Question question = defaultQuestion())
    {
        auto slot = std::make_shared<std::optional<HttpAskDesk::Decision>>();
        desk->ask(std::move(question), [slot](const HttpAskDesk::Decision& decision) {
            QVERIFY2(!slot->has_value(), "answered twice");
            *slot = decision;
        });
        return slot;
    }

    void runFor(std::chrono::milliseconds time)
    {
        io.restart();
        io.run_for(time);
    }

    static HttpAskDesk::Question defaultQuestion()
    {
        return {"POST", "api.github.com", 443, "/repos/o/r/issues/1/comments", "POST api.github.com /** ask", {}};
    }

    boost::asio::io_context io;
    std::unique_ptr<HttpAskDesk> desk;
    std::vector<Recorded> records;
    std::vector<json> sent;
    std::vector<std::string> asked;
    std::vector<std::function<void(bool)>> replies;

private:
    Setup setup_;
};

}  // namespace

class HttpAskDeskTest : public QObject {
    Q_OBJECT

private slots:
    void theParentApproves()
    {
        DeskRig rig({});
        auto answer = rig.ask();
        QCOMPARE(rig.sent.size(), size_t(1));
        const json message = rig.sent.front();
        QVERIFY(message["kind"] == "http");
        QVERIFY(message["http"]["method"] == "POST");
        QVERIFY(message["http"]["path"] == "/repos/o/r/issues/1/comments");
        const std::string rid = message["rid"];
        QVERIFY(HttpAskDesk::isHttpRequestId(rid));
        QVERIFY(!answer->has_value());  // held

        QVERIFY(rig.desk->decide({{"t", "decision"}, {"rid", rid}, {"decision", "approved"}, {"by", {{"uid", 1000}}}}));
        QVERIFY(answer->has_value());
        QVERIFY((*answer)->allowed);
        QVERIFY((*answer)->by["uid"] == 1000);
        QCOMPARE(rig.records.size(), size_t(2));
        QCOMPARE(rig.records[0].type, std::string("approval.request"));
        QVERIFY(rig.records[0].data["kind"] == "http");
        QCOMPARE(rig.records[1].type, std::string("approval.decision"));
        QVERIFY(rig.records[1].data["decision"] == "approved");
        QVERIFY(rig.records[1].data["by"]["uid"] == 1000);
        // Once answered, a second decision for it is not taken.
        QVERIFY(!rig.desk->decide({{"rid", rid}, {"decision", "denied"}}));
        QCOMPARE(rig.desk->pending(), size_t(0));
    }

    void theParentDenies()
    {
        DeskRig rig({});
        auto answer = rig.ask();
        QVERIFY(rig.desk->decide({{"rid", rig.sent.front()["rid"]}, {"decision", "denied"}, {"reason", "no"}}));
        QVERIFY(answer->has_value() && !(*answer)->allowed);
        QCOMPARE((*answer)->decision, std::string("denied"));
    }

    void noAnswerIsADenyAtTheDeadline()
    {
        DeskRig rig({.timeout = std::chrono::seconds(1)});
        auto answer = rig.ask();
        rig.runFor(std::chrono::milliseconds(400));
        QVERIFY(!answer->has_value());
        rig.runFor(std::chrono::milliseconds(1000));
        QVERIFY(answer->has_value());
        QVERIFY(!(*answer)->allowed);
        QCOMPARE((*answer)->decision, std::string("timed_out"));
        QVERIFY(rig.records.back().data["by"]["policy"] == "deadline");
    }

    void embeddedAsksAtTheTerminal_data()
    {
        QTest::addColumn<bool>("yes");
        QTest::newRow("yes") << true;
        QTest::newRow("no") << false;
    }

    void embeddedAsksAtTheTerminal()
    {
        QFETCH(bool, yes);
        DeskRig rig({.parent = false, .terminal = true});
        HttpAskDesk::Question push{"POST", "git.example", 443, "/o/r.git/git-receive-pack", "push git.example o/r refs/heads/main ask",
                                   {"refs/heads/main"}};
        auto answer = rig.ask(push);
        QCOMPARE(rig.asked.size(), size_t(1));
        QVERIFY2(rig.asked.front().find("POST git.example/o/r.git/git-receive-pack (updates refs/heads/main)") !=
                     std::string::npos,
                 rig.asked.front().c_str());
        rig.replies.front()(yes);
        rig.runFor(std::chrono::milliseconds(50));
        QVERIFY(answer->has_value());
        QCOMPARE((*answer)->allowed, yes);
        QVERIFY((*answer)->by["terminal"] == true);
        QVERIFY(rig.records.back().data["http"].is_null());  // the decision names the rid, not the request again
        QVERIFY(rig.records.front().data["http"]["refs"][0] == "refs/heads/main");
    }

    void aTerminalReplyAfterTheDeadlineIsIgnored()
    {
        DeskRig rig({.parent = false, .terminal = true, .timeout = std::chrono::seconds(1)});
        auto answer = rig.ask();
        rig.runFor(std::chrono::milliseconds(1300));
        QVERIFY(answer->has_value() && !(*answer)->allowed);
        rig.replies.front()(true);  // too late
        rig.runFor(std::chrono::milliseconds(50));
        QCOMPARE((*answer)->decision, std::string("timed_out"));
        QCOMPARE(rig.records.size(), size_t(2));
    }

    // The terminal gives up at the same deadline: its "no" arriving before
    // the desk's own timer ran is still recorded as the deadline's.
    void theTerminalsOwnDeadlineIsATimeout()
    {
        DeskRig rig({.parent = false, .terminal = true, .timeout = std::chrono::seconds(1)});
        auto answer = rig.ask();
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // the io_context does not run meanwhile
        rig.replies.front()(false);
        rig.runFor(std::chrono::milliseconds(50));
        QVERIFY(answer->has_value());
        QCOMPARE((*answer)->decision, std::string("timed_out"));
        QVERIFY((*answer)->by["policy"] == "deadline");
        QCOMPARE(rig.records.size(), size_t(2));
    }

    void nobodyToAskIsADenyAtOnce()
    {
        DeskRig rig({.parent = false, .terminal = false});
        auto answer = rig.ask();
        QVERIFY(answer->has_value() && !(*answer)->allowed);
        QVERIFY(rig.records.back().data["by"]["policy"] == "nobody_to_ask");
    }

    void aDetachedParentGetsItWhenItComesBack()
    {
        DeskRig rig({.parentAttached = false});
        auto answer = rig.ask();
        QVERIFY(!answer->has_value());  // waits for a parent or the deadline
        rig.desk->resendPending();
        QCOMPARE(rig.sent.size(), size_t(2));
        QVERIFY(rig.sent[0]["rid"] == rig.sent[1]["rid"]);
    }

    void tooManyWaitingIsADeny()
    {
        DeskRig rig({.maxPending = 2});
        rig.ask();
        rig.ask();
        auto third = rig.ask();
        QVERIFY(third->has_value() && !(*third)->allowed);
        QCOMPARE(rig.desk->pending(), size_t(2));
    }

    void theSessionEndingDeniesWhatWaits()
    {
        DeskRig rig({});
        auto first = rig.ask();
        auto second = rig.ask();
        rig.desk->closeAll();
        QVERIFY(first->has_value() && !(*first)->allowed);
        QVERIFY(second->has_value() && !(*second)->allowed);
        QVERIFY(rig.records.back().data["by"]["policy"] == "session_end");
    }

    void decisionsForOtherDesksAreNotTaken()
    {
        DeskRig rig({});
        rig.ask();
        QVERIFY(!rig.desk->decide({{"rid", "r-0123456789ab"}, {"decision", "approved"}}));
        QVERIFY(!rig.desk->decide({{"rid", rig.sent.front()["rid"]}, {"decision", "maybe"}}));
        QCOMPARE(rig.desk->pending(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(HttpAskDeskTest)
#include "tst_http_ask_desk.moc"
