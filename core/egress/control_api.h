// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace moat {

// The control endpoint ($MOAT_API), served by the supervisor on the proxy's
// listener and never forwarded. The caller is the agent: it may read what
// its session is, never change it. Requests to widen a session
// (POST /v1/requests) are handed to the supervisor as requests for someone
// to decide, never as changes, and their answer is held until then.
struct ControlResponse {
    unsigned status = 200;
    nlohmann::json body;
};

// The largest body the control endpoint reads (an escalation request): 413 past it.
inline constexpr std::size_t kMaxControlBody = 64 * 1024;

// Answers one held request; called exactly once, on the proxy's thread.
using ControlAnswer = std::function<void(ControlResponse)>;
// Takes an escalation request: `query` is the text after '?' (may be empty),
// `body` the agent's bytes (at most kMaxControlBody, not yet parsed). It may
// answer at once (a malformed body) or much later (a person decided); the
// agent's connection waits, and every other connection keeps being served.
using EscalationHandler = std::function<void(std::string_view query, std::string body, ControlAnswer answer)>;

// Whether this request is an escalation request (POST /v1/requests), which
// the proxy reads the body of and hands to the EscalationHandler.
bool isEscalationRequest(std::string_view method, std::string_view path);

// The other requests, answered at once: method and path (with query) as the
// agent sent them; session is the session's description (id, name, flags,
// expires).
ControlResponse answerControlRequest(std::string_view method, std::string_view path, const nlohmann::json& session);

}  // namespace moat
