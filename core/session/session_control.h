// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"
#include "egress/control_api.h"
#include "session/escalation_desk.h"
#include "session/http_ask_desk.h"
#include "session/parent_link.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace moat {

// What the supervisor does for its parent (ParentLink has the messages):
// carries out stop, renew, signal and decisions through the supervisor's
// Actions, tells the parent about the session (started, events, requests,
// ended), and owns the EscalationDesk that the control endpoint's POST
// /v1/requests goes to, and the HttpAskDesk that the proxy's `ask` rules go
// to. A parent's decision goes to the desk its request id names: "r-" the
// escalation desk, "h-" the HTTP desk.
class SessionControl {
public:
    // Embedded mode: puts a held request's question to the person at the
    // terminal (TerminalQuestion::ask); false when there is nobody to ask.
    using AskTerminal = std::function<bool(const std::string& text, std::chrono::steady_clock::time_point deadline,
                                           std::function<void(bool allowed)> reply)>;

    struct Actions {
        EscalationDesk::Record record;
        // Record session.stop with who asked, then end the sandbox.
        std::function<void(const nlohmann::json& by)> stop;
        // Re-arm the TTL from now (ttl "" : the session's own); the new
        // expiry (ISO time), or why not.
        std::function<Result<std::string>(const std::string& ttl, const nlohmann::json& by)> renew;
        std::function<void(int signal)> signal;
        // Used only in embedded mode (no --parent-fd); may be empty.
        AskTerminal askTerminal;
    };

    // parentFd: --parent-fd (invalid: embedded mode: nobody decides
    // escalation requests, and the HTTP desk asks at the terminal).
    SessionControl(boost::asio::io_context& io, std::string sessionId, UniqueFd parentFd, Actions actions,
                   HttpAskDesk::Options httpAsks = {});
    ~SessionControl();
    SessionControl(const SessionControl&) = delete;
    SessionControl& operator=(const SessionControl&) = delete;

    // Attaches the parent fd (hello). Before the sandbox is launched, so
    // that a parent hears of a failed start too.
    void attach();
    // The re-attach socket; after the launch, so that sandbox init (a clone
    // of the supervisor) never holds it.
    Status listen(const std::string& path);
    // The sandbox runs: "started" now, and to every parent attached later.
    void sandboxStarted(const std::string& expires);
    void expiryChanged(const std::string& expires) { expires_ = expires; }
    // Records were appended, the last with this seq ("events", throttled).
    void eventsAppended(uint64_t lastSeq);
    // The control endpoint's handler for POST /v1/requests.
    EscalationHandler escalationHandler();
    // Where the proxy's `ask` rules hold requests (ask() on the io_context's
    // thread); its answers come from moatd, the terminal or the deadline.
    HttpAskDesk& httpAsks() { return httpDesk_; }
    // The session is ending: each pending request is answered and its
    // decision recorded (before session.end and the seal).
    void closeRequests();
    // Says "ended" (the last message) and closes the link and the socket.
    void end(const std::string& state, int exitCode);

    bool embedded() const { return link_.embedded(); }

private:
    void onMessage(const nlohmann::json& message);
    void onAttached();
    void sendEventsNotice();
    void refuse(const std::string& what, const std::string& message);

    boost::asio::io_context& io_;
    std::string sessionId_;
    Actions actions_;
    UniqueFd parentFd_;
    ParentLink link_;
    EscalationDesk desk_;
    HttpAskDesk httpDesk_;
    boost::asio::steady_timer eventsTimer_;
    std::chrono::steady_clock::time_point lastNotice_{};
    bool noticeDue_ = false;
    uint64_t lastSeq_ = 0;
    uint64_t notifiedSeq_ = 0;
    bool started_ = false;
    std::string expires_;
};

}  // namespace moat
