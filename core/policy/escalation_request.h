// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace moat {

// What an agent asks for from inside its sandbox (`moat request`, or a POST
// to $MOAT_API/v1/requests): a successor sandbox with these flags added.
// Everything here was written by the agent: it is untrusted, bounded and
// validated, and it never changes the running sandbox.
struct EscalationRequest {
    std::vector<std::string> allowHosts;  // each a valid HostPattern argument
    bool sudo = false;
    bool docker = false;
    bool netOpen = false;
    std::string reason;                // the agent's words; shown quoted, never interpreted
    std::vector<std::string> command;  // empty: the same command again

    // Nothing asked for at all.
    bool empty() const { return allowHosts.empty() && !sudo && !docker && !netOpen; }
    // The flags as `moat run` would spell them, e.g. {"--allow-host", "x.org", "--sudo"}.
    std::vector<std::string> flagArguments() const;
};

// Limits on what the agent may send (the JSON body as a whole is bounded by
// the control endpoint).
struct EscalationRequestLimits {
    std::size_t maxHosts = 32;
    std::size_t maxReason = 2000;  // bytes
    std::size_t maxCommandArgs = 256;
    std::size_t maxCommandBytes = 64 * 1024;
};

// Parses the JSON body: {"allow_hosts":[...], "sudo":bool, "docker":bool,
// "net":"open", "reason":"...", "command":[...]}; unknown fields, wrong
// types, invalid host patterns, an empty request or anything over the
// limits are an Error whose message the agent may see.
Result<EscalationRequest> escalationRequestFromJson(const nlohmann::json& body,
                                                    const EscalationRequestLimits& limits = {});
nlohmann::json toJson(const EscalationRequest& request);

}  // namespace moat
