// SPDX-License-Identifier: Apache-2.0
#include "session/http_ask_desk.h"

#include "session/escalation_desk.h"
#include "session/iso_time.h"

#include <boost/asio/post.hpp>

namespace moat {

namespace {

using nlohmann::json;

json questionJson(const HttpAskDesk::Question& question)
{
    json data = {{"method", question.method},
                 {"host", question.host},
                 {"port", question.port},
                 {"path", question.path},
                 {"rule", question.rule}};
    if (!question.refs.empty()) {
        data["refs"] = question.refs;
    }
    return data;
}

}  // namespace

HttpAskDesk::HttpAskDesk(boost::asio::io_context& io, std::string sessionId, Options options, Record record,
                         SendToParent send, AskTerminal terminal)
    : io_(io),
      sessionId_(std::move(sessionId)),
      options_(options),
      record_(std::move(record)),
      send_(std::move(send)),
      terminal_(std::move(terminal))
{
}

HttpAskDesk::~HttpAskDesk() = default;

bool HttpAskDesk::isHttpRequestId(const std::string& rid)
{
    return rid.rfind("h-", 0) == 0;
}

std::string HttpAskDesk::describe(const Question& question)
{
    std::string text = question.method + " " + question.host;
    if (question.port != 443 && question.port != 80) {
        text += ":" + std::to_string(question.port);
    }
    text += question.path;
    for (const auto& ref : question.refs) {
        text += (ref == question.refs.front() ? " (updates " : ", ") + ref;
    }
    if (!question.refs.empty()) {
        text += ")";
    }
    return text + ", held by the rule '" + question.rule + "'";
}

void HttpAskDesk::ask(Question question, Answer answer)
{
    // "r-" + hex from the escalation desk's generator, marked as this desk's.
    const std::string rid = "h-" + newRequestId().substr(2);
    if (pending_.size() >= options_.maxPending) {
        json data = {{"rid", rid}, {"kind", "http"}, {"http", questionJson(question)}};
        record_("approval.request", data);
        const std::string reason = std::to_string(pending_.size()) + " requests already wait for an answer";
        record_("approval.decision",
                {{"rid", rid}, {"decision", "denied"}, {"by", {{"policy", "too_many"}}}, {"reason", reason}});
        answer({false, rid, "denied", {{"policy", "too_many"}}, reason});
        return;
    }
    const auto now = std::chrono::system_clock::now();
    Pending pending;
    pending.requested = isoTime(now);
    pending.deadline = isoTime(now + options_.timeout);
    pending.answer = std::move(answer);
    pending.question = std::move(question);
    pending.timer = std::make_unique<boost::asio::steady_timer>(io_, options_.timeout);
    pending.timer->async_wait([this, rid](const boost::system::error_code& ec) {
        if (!ec) {
            finish(rid, "timed_out", {{"policy", "deadline"}}, "no answer in time");
        }
    });
    record_("approval.request", {{"rid", rid},
                                 {"kind", "http"},
                                 {"http", questionJson(pending.question)},
                                 {"timeout_seconds", options_.timeout.count()}});
    const json message = requestMessage(rid, pending);
    const std::string text = describe(pending.question);
    pending_.emplace(rid, std::move(pending));

    if (send_ && send_(message)) {
        return;  // the parent (moatd) asks a person
    }
    // Embedded mode, or no parent attached right now: the terminal, if any.
    const bool asked = terminal_ && terminal_(rid, text, [this, rid](bool allowed) {
        boost::asio::post(io_, [this, rid, allowed] {
            // The terminal gives up at the same deadline as this desk (a
            // moment later: it was asked after the timer started). A "no"
            // from it then is the deadline's, whichever timer fired first.
            const auto found = pending_.find(rid);
            if (!allowed && found != pending_.end() &&
                found->second.timer->expiry() <= boost::asio::steady_timer::clock_type::now()) {
                finish(rid, "timed_out", {{"policy", "deadline"}}, "no answer in time");
                return;
            }
            finish(rid, allowed ? "approved" : "denied", {{"terminal", true}},
                   allowed ? "approved at the terminal" : "denied at the terminal");
        });
    });
    if (!asked && !send_) {
        finish(rid, "denied", {{"policy", "nobody_to_ask"}},
               "nobody can answer: no moatd and no terminal to ask at; use a rule that says allow or deny");
    }
    // Otherwise it waits for a parent to attach (resendPending) or the deadline.
}

json HttpAskDesk::requestMessage(const std::string& rid, const Pending& pending) const
{
    return {{"t", "request"},
            {"rid", rid},
            {"session", sessionId_},
            {"kind", "http"},
            {"http", questionJson(pending.question)},
            {"timeout_seconds", options_.timeout.count()},
            {"requested", pending.requested},
            {"deadline", pending.deadline}};
}

bool HttpAskDesk::decide(const json& message)
{
    const auto rid = message.value("rid", json()).is_string() ? message["rid"].get<std::string>() : std::string();
    if (pending_.find(rid) == pending_.end()) {
        return false;
    }
    const auto parsed = parseParentDecision(message);
    if (!parsed) {
        return false;
    }
    finish(rid, parsed->decision, parsed->by, parsed->reason);
    return true;
}

void HttpAskDesk::finish(std::string rid, const std::string& decision, const json& by, const std::string& reason)
{
    auto found = pending_.find(rid);
    if (found == pending_.end()) {
        return;  // answered already (a terminal reply racing the deadline)
    }
    Pending pending = std::move(found->second);
    pending_.erase(found);
    pending.timer->cancel();
    record_("approval.decision", {{"rid", rid}, {"kind", "http"}, {"decision", decision}, {"by", by}, {"reason", reason}});
    pending.answer({decision == "approved", rid, decision, by, reason});
}

void HttpAskDesk::resendPending()
{
    for (const auto& [rid, pending] : pending_) {
        if (!send_ || !send_(requestMessage(rid, pending))) {
            return;
        }
    }
}

void HttpAskDesk::closeAll()
{
    while (!pending_.empty()) {
        finish(pending_.begin()->first, "denied", {{"policy", "session_end"}},
               "the session ended before anyone answered");
    }
}

}  // namespace moat
