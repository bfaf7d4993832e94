// SPDX-License-Identifier: Apache-2.0
#include "session/escalation_desk.h"

#include "session/iso_time.h"

#include <sys/random.h>

#include <spdlog/spdlog.h>

#include <charconv>

namespace moat {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxDecisionReason = 2000;
constexpr std::size_t kMaxBy = 1024;

ControlResponse problem(unsigned status, std::string text)
{
    return {status, {{"error", std::move(text)}}};
}

// ?timeout=N among the query's parameters: nullopt when absent, 0 when unreadable.
std::optional<long> timeoutParameter(std::string_view query)
{
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view item = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        constexpr std::string_view kName = "timeout=";
        if (item.substr(0, kName.size()) != kName) {
            continue;
        }
        const std::string_view digits = item.substr(kName.size());
        long value = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) {
            return 0;
        }
        return value;
    }
    return std::nullopt;
}

}  // namespace

json boundedActor(const json& by)
{
    if (!by.is_object() || by.dump().size() > kMaxBy) {
        return {{"unreadable", true}};
    }
    return by;
}

std::string newRequestId()
{
    unsigned char bytes[6] = {};
    std::size_t got = 0;
    while (got < sizeof bytes) {
        const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
        if (n > 0) {
            got += static_cast<std::size_t>(n);
        }
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string rid = "r-";
    for (unsigned char byte : bytes) {
        rid += kHex[byte >> 4];
        rid += kHex[byte & 0xf];
    }
    return rid;
}

std::optional<ParentDecision> parseParentDecision(const json& message)
{
    ParentDecision parsed;
    parsed.rid = message.value("rid", json()).is_string() ? message["rid"].get<std::string>() : std::string();
    parsed.decision =
        message.value("decision", json()).is_string() ? message["decision"].get<std::string>() : std::string();
    if (parsed.decision != "approved" && parsed.decision != "denied" && parsed.decision != "timed_out") {
        spdlog::warn("ignoring a decision for '{}' that is neither approved, denied nor timed_out", parsed.rid.substr(0, 40));
        return std::nullopt;
    }
    parsed.reason = message.value("reason", json()).is_string() ? message["reason"].get<std::string>() : "";
    parsed.reason.resize(std::min(parsed.reason.size(), kMaxDecisionReason));
    parsed.by = boundedActor(message.value("by", json()));
    return parsed;
}

EscalationDesk::EscalationDesk(boost::asio::io_context& io, std::string sessionId, Options options, Record record,
                               SendToParent send)
    : io_(io),
      sessionId_(std::move(sessionId)),
      options_(options),
      record_(std::move(record)),
      send_(std::move(send)),
      budget_(options.requestsPerSecond)
{
}

EscalationDesk::~EscalationDesk() = default;

void EscalationDesk::submit(std::string_view query, const std::string& body, ControlAnswer answer)
{
    // Everything here is the agent's: parsed with limits, and quoted back
    // only in errors that the parser bounded.
    std::chrono::seconds timeout = options_.defaultTimeout;
    if (auto asked = timeoutParameter(query)) {
        if (*asked < 1 || *asked > options_.maxTimeout.count()) {
            answer(problem(400, "timeout must be a whole number of seconds from 1 to " +
                                    std::to_string(options_.maxTimeout.count())));
            return;
        }
        timeout = std::chrono::seconds(*asked);
    }
    auto parsed = json::parse(body, nullptr, false);
    if (parsed.is_discarded()) {
        answer(problem(400, "malformed escalation request: the body is not JSON"));
        return;
    }
    auto request = escalationRequestFromJson(parsed);
    if (!request) {
        answer(problem(400, request.error().message()));
        return;
    }
    if (pending_.size() >= options_.maxPending) {
        answer(problem(429, "there are already " + std::to_string(pending_.size()) +
                                " requests waiting for an answer; wait for one of them"));
        return;
    }
    if (!budget_.admit()) {
        answer(problem(429, "too many escalation requests this second; ask again in a moment"));
        return;
    }
    const std::string rid = newRequestId();
    const auto now = std::chrono::system_clock::now();
    json data = {{"rid", rid},
                 {"request",
                  {{"allow_hosts", request->allowHosts},
                   {"sudo", request->sudo},
                   {"docker", request->docker},
                   {"net_open", request->netOpen}}},
                 {"flags", request->flagArguments()},
                 {"command", request->command},
                 {"reason", request->reason},
                 {"timeout_seconds", timeout.count()}};
    if (const uint64_t suppressed = budget_.takeSuppressed(); suppressed > 0) {
        data["not_recorded_before"] = suppressed;
    }
    record_("approval.request", std::move(data));

    if (!options_.parentDecides) {
        const std::string reason =
            "moat runs without moatd (embedded mode): nobody can approve a request from this session. Start "
            "moatd and run the session again, or start a new session with the flags you need";
        record_("approval.decision",
                {{"rid", rid}, {"decision", "denied"}, {"by", {{"policy", "embedded"}}}, {"reason", reason}});
        answer({503, {{"rid", rid}, {"decision", "denied"}, {"reason", reason}, {"by", {{"policy", "embedded"}}}}});
        return;
    }

    Pending pending;
    pending.request = std::move(request.value());
    pending.timeout = timeout;
    pending.requested = isoTime(now);
    pending.deadline = isoTime(now + timeout);
    pending.answer = std::move(answer);
    pending.timer = std::make_unique<boost::asio::steady_timer>(io_, timeout);
    pending.timer->async_wait([this, rid](const boost::system::error_code& ec) {
        if (!ec) {
            finish(rid, "timed_out", {{"policy", "deadline"}}, "no answer in time", {});
        }
    });
    const json message = requestMessage(rid, pending);
    pending_.emplace(rid, std::move(pending));
    if (!send_(message)) {
        spdlog::debug("request {} waits for a parent to attach", rid);
    }
}

json EscalationDesk::requestMessage(const std::string& rid, const Pending& pending) const
{
    return {{"t", "request"},
            {"rid", rid},
            {"session", sessionId_},
            {"request", toJson(pending.request)},
            {"timeout_seconds", pending.timeout.count()},
            {"requested", pending.requested},
            {"deadline", pending.deadline}};
}

bool EscalationDesk::decide(const json& message)
{
    const auto rid = message.value("rid", json()).is_string() ? message["rid"].get<std::string>() : std::string();
    if (pending_.find(rid) == pending_.end()) {
        spdlog::debug("ignoring a decision for unknown or answered request '{}'", rid.substr(0, 40));
        return false;
    }
    const auto parsed = parseParentDecision(message);
    if (!parsed) {
        return false;
    }
    const std::string& decision = parsed->decision;
    const std::string& reason = parsed->reason;
    const json& by = parsed->by;
    ControlResponse response;
    if (decision == "approved") {
        const bool successor =
            message.value("successor", json(true)).is_boolean() ? message["successor"].get<bool>() : true;
        response = {200,
                    {{"rid", rid},
                     {"decision", "approved"},
                     {"successor", successor},
                     {"by", by},
                     {"message", successor ? "approved: when this session's command exits, a successor sandbox "
                                             "starts with the flags asked for"
                                           : "approved, but no successor sandbox will start"}}};
        if (!reason.empty()) {
            response.body["reason"] = reason;
        }
        finish(rid, decision, by, reason, std::move(response));
        return true;
    }
    finish(rid, decision, by, reason, std::move(response));
    return true;
}

void EscalationDesk::finish(std::string rid, const std::string& decision, const json& by,
                            const std::string& reason, ControlResponse response)
{
    auto found = pending_.find(rid);
    if (found == pending_.end()) {
        return;
    }
    Pending pending = std::move(found->second);
    pending_.erase(found);
    pending.timer->cancel();
    json data = {{"rid", rid}, {"decision", decision}, {"by", by}, {"reason", reason}};
    if (decision == "approved") {
        data["successor"] = response.body.value("successor", true);
    }
    record_("approval.decision", std::move(data));
    if (decision == "denied") {
        response = {403, {{"rid", rid}, {"decision", "denied"}, {"reason", reason}, {"by", by}}};
    } else if (decision == "timed_out") {
        response = {408, {{"rid", rid}, {"decision", "timed_out"}, {"reason", reason}}};
    }
    pending.answer(std::move(response));
}

void EscalationDesk::resendPending()
{
    for (const auto& [rid, pending] : pending_) {
        if (!send_(requestMessage(rid, pending))) {
            return;
        }
    }
}

void EscalationDesk::closeAll()
{
    while (!pending_.empty()) {
        finish(pending_.begin()->first, "denied", {{"policy", "session_end"}},
               "the session ended before anyone answered", {});
    }
}

}  // namespace moat
