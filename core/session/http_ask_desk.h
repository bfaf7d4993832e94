// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace moat {

// The supervisor's desk for HTTP requests that an `ask` rule holds
// (docs/rules.md): it records approval.request (kind "http"), puts the
// question to whoever can answer it outside the sandbox, and answers the
// proxy once, with the decision or, at the deadline, a deny. A person
// answers either through the parent (moatd: `moat approve RID`, the desktop
// app) or, in embedded mode, at the terminal that started the session. No
// answer is a deny; the session ending is a deny.
//
// What is asked is what the proxy saw (method, host, path, the rule, the
// refs of a push): the agent chooses all of it, so it is recorded as data
// and shown to a person as untrusted text by whoever displays it.
class HttpAskDesk {
public:
    struct Question {
        std::string method;
        std::string host;
        uint16_t port = 443;
        std::string path;
        std::string rule;               // the rule that said ask, as written
        std::vector<std::string> refs;  // a push: the refs it updates
    };
    struct Decision {
        bool allowed = false;
        std::string rid;
        std::string decision;  // approved, denied, timed_out
        nlohmann::json by;     // who answered ({"uid":..} from moatd, {"terminal":..}, {"policy":..})
        std::string reason;
    };
    using Answer = std::function<void(const Decision&)>;
    using Record = std::function<void(const std::string& type, nlohmann::json data)>;
    // Sends a message to the parent; false when none is attached.
    using SendToParent = std::function<bool(const nlohmann::json& message)>;
    // Embedded mode: shows the question at the user's terminal and calls back
    // with the answer (true: allow); false when there is no terminal to ask.
    using AskTerminal = std::function<bool(const std::string& rid, const std::string& text,
                                           std::function<void(bool allowed)> reply)>;

    struct Options {
        std::chrono::seconds timeout{60};
        std::size_t maxPending = 16;
    };

    HttpAskDesk(boost::asio::io_context& io, std::string sessionId, Options options, Record record, SendToParent send,
                AskTerminal terminal);
    ~HttpAskDesk();
    HttpAskDesk(const HttpAskDesk&) = delete;
    HttpAskDesk& operator=(const HttpAskDesk&) = delete;

    // Holds the request until an answer or the deadline; answer is called
    // exactly once, on the io_context's thread.
    void ask(Question question, Answer answer);
    // {"t":"decision","rid":"h-...",...} from the parent; false for a rid
    // this desk does not hold (already answered, or not an HTTP ask).
    bool decide(const nlohmann::json& message);
    // Every pending question again, to a parent that just attached.
    void resendPending();
    // The session is ending: each pending request is denied.
    void closeAll();

    std::size_t pending() const { return pending_.size(); }
    // The one-line question a person reads (untrusted parts are the caller's
    // to neutralise for a terminal).
    static std::string describe(const Question& question);
    // Request ids of this desk start with "h-" (escalation requests with "r-").
    static bool isHttpRequestId(const std::string& rid);

private:
    struct Pending {
        Question question;
        std::string requested;
        std::string deadline;
        Answer answer;
        std::unique_ptr<boost::asio::steady_timer> timer;  // expires at the deadline
    };
    nlohmann::json requestMessage(const std::string& rid, const Pending& pending) const;
    // rid by value: callers pass keys of pending_, which finish() erases.
    void finish(std::string rid, const std::string& decision, const nlohmann::json& by,
                const std::string& reason);

    boost::asio::io_context& io_;
    std::string sessionId_;
    Options options_;
    Record record_;
    SendToParent send_;
    AskTerminal terminal_;
    std::map<std::string, Pending> pending_;
};

}  // namespace moat
