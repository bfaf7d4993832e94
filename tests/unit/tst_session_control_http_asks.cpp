// SPDX-License-Identifier: Apache-2.0
// SessionControl's HTTP desk, on a real parent link: with a parent (moatd),
// a held request goes to it as {"t":"request","kind":"http"} with an h- id,
// the parent's decision reaches the HTTP desk (not the escalation desk) with
// who answered, a re-attached parent is told again, and the session's end
// denies what still waits; in embedded mode the question goes to the
// terminal, and with no terminal nobody is asked: a deny at once.
#include "session/session_control.h"

#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include <map>
#include <optional>

using moat::HttpAskDesk;
using moat::SessionControl;
using nlohmann::json;

namespace {

class ControlRig {
public:
    explicit ControlRig(bool withParent, SessionControl::AskTerminal terminal = {})
    {
        int pair[2] = {-1, -1};
        if (withParent) {
            ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair);
            parent_.reset(pair[0]);
        }
        SessionControl::Actions actions;
        actions.record = [this](const std::string& type, json data) { records.push_back({{"type", type}, {"data", data}}); };
        actions.stop = [](const json&) {};
        actions.renew = [](const std::string&, const json&) -> moat::Result<std::string> { return std::string(); };
        actions.signal = [](int) {};
        actions.askTerminal = std::move(terminal);
        control = std::make_unique<SessionControl>(io, "sess1", moat::UniqueFd(pair[1]), std::move(actions),
                                                   HttpAskDesk::Options{.timeout = std::chrono::seconds(30)});
        control->attach();
    }

    void spin(int ms = 50) { io.run_for(std::chrono::milliseconds(ms)); }

    json datagram()
    {
        spin();
        char buffer[65536];
        const ssize_t n = ::recv(parent_.get(), buffer, sizeof buffer, MSG_DONTWAIT);
        return n > 0 ? json::parse(std::string(buffer, static_cast<size_t>(n)), nullptr, false) : json();
    }
    void fromParent(const json& message)
    {
        const std::string text = message.dump();
        QCOMPARE(::send(parent_.get(), text.data(), text.size(), 0), ssize_t(text.size()));
        spin();
    }

    // The parent goes away; another one connects to the re-attach socket
    // and reads `count` lines (hello first).
    void loseParent()
    {
        parent_.reset();
        spin();
    }
    std::vector<json> reattach(const std::string& socketPath, std::size_t count)
    {
        reattached_ = moat::UniqueFd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, socketPath.c_str(), sizeof address.sun_path - 1);
        if (::connect(reattached_.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
            return {};
        }
        std::string text;
        std::vector<json> lines;
        for (int round = 0; round < 40 && lines.size() < count; ++round) {
            spin(25);
            char buffer[65536];
            const ssize_t n = ::recv(reattached_.get(), buffer, sizeof buffer, MSG_DONTWAIT);
            text.append(buffer, n > 0 ? static_cast<size_t>(n) : 0);
            for (auto end = text.find('\n'); end != std::string::npos; end = text.find('\n')) {
                lines.push_back(json::parse(text.substr(0, end), nullptr, false));
                text.erase(0, end + 1);
            }
        }
        return lines;
    }
    void fromReattached(const json& message)
    {
        const std::string text = message.dump() + "\n";
        QCOMPARE(::send(reattached_.get(), text.data(), text.size(), 0), ssize_t(text.size()));
        spin();
    }

    void ask(const std::string& path)
    {
        control->httpAsks().ask({"POST", "api.github.com", 443, path, "POST api.github.com /** ask", {}},
                                [this](const HttpAskDesk::Decision& decision) { answers.push_back(decision); });
        spin();
    }

    boost::asio::io_context io;
    std::unique_ptr<SessionControl> control;
    std::vector<json> records;
    std::vector<HttpAskDesk::Decision> answers;

private:
    moat::UniqueFd parent_;
    moat::UniqueFd reattached_;
};

}  // namespace

class SessionControlHttpAsks : public QObject {
    Q_OBJECT

private slots:
    void theParentIsAskedAndItsDecisionReachesTheHttpDesk()
    {
        ControlRig rig(true);
        QCOMPARE(rig.datagram().value("t", ""), std::string("hello"));
        rig.ask("/repos/o/r/issues");
        const json request = rig.datagram();
        QCOMPARE(request.value("t", ""), std::string("request"));
        QCOMPARE(request.value("kind", ""), std::string("http"));
        QCOMPARE(request.value("session", ""), std::string("sess1"));
        QCOMPARE(request.value("timeout_seconds", 0), 30);
        const std::string rid = request.value("rid", "");
        QVERIFY2(rid.size() == 14 && rid.rfind("h-", 0) == 0, rid.c_str());
        QCOMPARE(request["http"].value("path", ""), std::string("/repos/o/r/issues"));
        QCOMPARE(request["http"].value("rule", ""), std::string("POST api.github.com /** ask"));
        QVERIFY(rig.answers.empty());

        // The same id with an r- prefix is not this request.
        rig.fromParent({{"t", "decision"}, {"rid", "r-" + rid.substr(2)}, {"decision", "approved"}, {"by", {{"uid", 1}}},
                        {"reason", "x"}});
        QVERIFY(rig.answers.empty());
        const json by = {{"uid", 1000}, {"user", "alice"}, {"client", "cli"}, {"time", "2026-12-01T12:00:00Z"}};
        rig.fromParent({{"t", "decision"}, {"rid", rid}, {"decision", "approved"}, {"by", by}, {"reason", "approved by alice"}});
        QCOMPARE(rig.answers.size(), size_t(1));
        QVERIFY(rig.answers[0].allowed);
        QCOMPARE(rig.answers[0].rid, rid);
        QCOMPARE(rig.answers[0].by.value("user", ""), std::string("alice"));
        QCOMPARE(rig.answers[0].by.value("uid", 0), 1000);
        const json& decided = rig.records.back();
        QCOMPARE(decided.value("type", ""), std::string("approval.decision"));
        QCOMPARE(decided["data"].value("kind", ""), std::string("http"));
        QCOMPARE(decided["data"]["by"].value("user", ""), std::string("alice"));

        // Answered once: a second decision changes nothing.
        rig.fromParent({{"t", "decision"}, {"rid", rid}, {"decision", "denied"}, {"by", by}, {"reason", "late"}});
        QCOMPARE(rig.answers.size(), size_t(1));

        // A deny, then the session's end denies what still waits.
        rig.ask("/repos/o/r/pulls");
        const std::string second = rig.datagram().value("rid", "");
        rig.fromParent({{"t", "decision"}, {"rid", second}, {"decision", "denied"}, {"by", by}, {"reason", "denied by alice"}});
        QCOMPARE(rig.answers.size(), size_t(2));
        QVERIFY(!rig.answers[1].allowed);
        QCOMPARE(rig.answers[1].decision, std::string("denied"));
        rig.ask("/repos/o/r/labels");
        QCOMPARE(rig.control->httpAsks().pending(), size_t(1));
        rig.control->closeRequests();
        QCOMPARE(rig.answers.size(), size_t(3));
        QVERIFY(!rig.answers[2].allowed);
        QCOMPARE(rig.answers[2].by.value("policy", ""), std::string("session_end"));
    }

    void aParentAttachedLaterIsAskedAgain()
    {
        QTemporaryDir dir;
        const std::string socketPath = dir.path().toStdString() + "/run/supervisors/sess1.sock";
        ControlRig rig(true);
        QVERIFY(rig.control->listen(socketPath).ok());
        (void)rig.datagram();  // hello
        rig.ask("/one");
        const std::string first = rig.datagram().value("rid", "");
        rig.loseParent();
        rig.ask("/two");  // nobody attached: it waits (no terminal under moatd)
        QVERIFY(rig.answers.empty());
        const auto lines = rig.reattach(socketPath, 3);
        QCOMPARE(lines.size(), size_t(3));
        QCOMPARE(lines[0].value("t", ""), std::string("hello"));
        std::map<std::string, std::string> resent;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            QCOMPARE(lines[i].value("t", ""), std::string("request"));
            QCOMPARE(lines[i].value("kind", ""), std::string("http"));
            resent[lines[i]["http"].value("path", "")] = lines[i].value("rid", "");
        }
        QCOMPARE(resent["/one"], first);  // the same id: moatd knows it already
        QVERIFY(resent["/two"].rfind("h-", 0) == 0);
        rig.fromReattached({{"t", "decision"}, {"rid", resent["/two"]}, {"decision", "approved"},
                            {"by", {{"uid", 1000}, {"user", "alice"}, {"client", "gui"}}}, {"reason", "ok"}});
        QCOMPARE(rig.answers.size(), size_t(1));
        QVERIFY(rig.answers[0].allowed);
        QCOMPARE(rig.answers[0].by.value("client", ""), std::string("gui"));
        QCOMPARE(rig.control->httpAsks().pending(), size_t(1));
    }

    void embeddedModeAsksAtTheTerminal()
    {
        std::optional<std::string> shown;
        std::chrono::steady_clock::time_point deadline{};
        std::function<void(bool)> reply;
        ControlRig rig(false, [&](const std::string& text, std::chrono::steady_clock::time_point until,
                                  std::function<void(bool)> answer) {
            shown = text;
            deadline = until;
            reply = std::move(answer);
            return true;
        });
        const auto before = std::chrono::steady_clock::now();
        rig.ask("/repos/o/r/issues");
        QVERIFY(shown.has_value());
        QVERIFY2(shown->find("POST api.github.com/repos/o/r/issues") != std::string::npos, shown->c_str());
        QVERIFY2(shown->find("POST api.github.com /** ask") != std::string::npos, shown->c_str());
        // The desk's timeout is the terminal's deadline.
        QVERIFY(deadline >= before + std::chrono::seconds(29) && deadline <= before + std::chrono::seconds(31));
        QVERIFY(rig.answers.empty());
        reply(true);  // as the relay's thread would: the desk posts it to the io_context
        rig.spin();
        QCOMPARE(rig.answers.size(), size_t(1));
        QVERIFY(rig.answers[0].allowed);
        QCOMPARE(rig.answers[0].by.value("terminal", false), true);
    }

    void embeddedModeWithoutATerminalDeniesAtOnce()
    {
        ControlRig rig(false, [](const std::string&, std::chrono::steady_clock::time_point, std::function<void(bool)>) {
            return false;  // stdin is a pipe: nobody to ask
        });
        rig.ask("/x");
        QCOMPARE(rig.answers.size(), size_t(1));
        QVERIFY(!rig.answers[0].allowed);
        QCOMPARE(rig.answers[0].by.value("policy", ""), std::string("nobody_to_ask"));
    }
};

QTEST_GUILESS_MAIN(SessionControlHttpAsks)
#include "tst_session_control_http_asks.moc"
