// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/event_budget.h"
#include "egress/control_api.h"
#include "policy/escalation_request.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace moat {

// The supervisor's desk for escalation requests (POST $MOAT_API/v1/requests):
// it parses what the agent sent (untrusted, bounded), records
// approval.request, passes the request to the parent (moatd) and holds the
// agent's HTTP answer until the parent's decision or the request's deadline,
// then records approval.decision and answers. Nothing here changes the
// running sandbox: an approval is for a successor that moatd starts.
//
// Without a parent that can decide (embedded mode) every request is recorded
// and denied at once with 503. With one, a request stays pending while the
// parent is away (it is sent again when a parent attaches) until its
// deadline, then it is answered 408 (timed out: a deny).
//
// Answers (JSON): 200 approved, 403 denied, 408 timed out, 503 embedded,
// 400 malformed (nothing recorded), 429 too many requests at once or too fast.
class EscalationDesk {
public:
    struct Options {
        bool parentDecides = true;  // false: embedded, nobody to ask
        std::chrono::seconds defaultTimeout{120};
        std::chrono::seconds maxTimeout{600};
        std::size_t maxPending = 16;
        uint32_t requestsPerSecond = 10;  // recorded requests; more are answered 429
    };
    using Record = std::function<void(const std::string& type, nlohmann::json data)>;
    // Sends a message to the parent; false when none is attached.
    using SendToParent = std::function<bool(const nlohmann::json& message)>;

    EscalationDesk(boost::asio::io_context& io, std::string sessionId, Options options, Record record,
                   SendToParent send);
    ~EscalationDesk();
    EscalationDesk(const EscalationDesk&) = delete;
    EscalationDesk& operator=(const EscalationDesk&) = delete;

    // The control endpoint's EscalationHandler.
    void submit(std::string_view query, const std::string& body, ControlAnswer answer);
    // {"t":"decision",...} from the parent. An unknown or already answered
    // rid is ignored (false).
    bool decide(const nlohmann::json& message);
    // Every pending request again, to a parent that just attached.
    void resendPending();
    // The session is ending: each pending request is recorded as denied
    // and answered (its agent is gone with the sandbox).
    void closeAll();

    std::size_t pending() const { return pending_.size(); }

private:
    struct Pending {
        EscalationRequest request;
        std::chrono::seconds timeout;
        std::string requested;  // ISO time
        std::string deadline;   // ISO time
        ControlAnswer answer;
        std::unique_ptr<boost::asio::steady_timer> timer;
    };

    nlohmann::json requestMessage(const std::string& rid, const Pending& pending) const;
    // rid by value: callers pass keys of pending_, which finish() erases.
    void finish(std::string rid, const std::string& decision, const nlohmann::json& by,
                const std::string& reason, ControlResponse response);

    boost::asio::io_context& io_;
    std::string sessionId_;
    Options options_;
    Record record_;
    SendToParent send_;
    EventBudget budget_;
    std::map<std::string, Pending> pending_;
};

// Who acted, as the parent said ({"uid","user","client"} or {"policy"}),
// bounded: the parent is moatd (trusted), but a record must not grow with
// whatever arrives. Not an object, or over 1 KiB: {"unreadable":true}.
nlohmann::json boundedActor(const nlohmann::json& by);

// "r-" and 12 random hex digits.
std::string newRequestId();

// A parent's {"t":"decision"} message, checked: the decision is one of
// approved, denied, timed_out; the reason bounded; the actor bounded
// (boundedActor). nullopt for anything else.
struct ParentDecision {
    std::string rid;
    std::string decision;
    std::string reason;
    nlohmann::json by;
};
std::optional<ParentDecision> parseParentDecision(const nlohmann::json& message);

}  // namespace moat
