// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "policy/duration.h"
#include "policy/escalation_request.h"

namespace moat {

// What the user lets an agent grant itself: per flag of an escalation
// request, `auto` (granted on its own), `ask` (a person answers) or `deny`.
// Read by moatd from the user's policy.toml in moat's config directory, never
// from a workspace: nothing a sandbox can write may widen what it can ask for.
//
//   timeout = "120s"            how long an `ask` waits for a person
//   sudo = "ask"                auto | ask | deny
//   docker = "ask"
//   net_open = "deny"           `--net open` (no egress control at all)
//   [allow_host]
//   default = "ask"             any host not named below
//   auto = ["*.pypi.org", "registry.npmjs.org"]
//   deny = ["*.internal.example"]
//
// A file that does not parse is not guessed at: the policy it yields refuses
// every request, with the parse error as the reason (fail closed).
enum class Grant { Auto, Ask, Deny };

std::string toString(Grant grant);

struct EscalationPolicy {
    Grant allowHost = Grant::Ask;
    std::vector<std::string> autoHosts;  // HostPattern spellings; covers a request's host when it names no wider one
    std::vector<std::string> denyHosts;
    Grant sudo = Grant::Ask;
    Grant docker = Grant::Ask;
    Grant netOpen = Grant::Deny;
    Duration timeout = Duration::fromSeconds(std::chrono::seconds(120));
    // Non-empty: the file was unusable; every request is denied with this.
    std::string brokenBecause;

    // The shipped defaults (no policy.toml): allow-host ask, sudo ask,
    // docker ask, net open deny, 120 s.
    static EscalationPolicy defaults() { return {}; }
    // Parses policy.toml's text. An Error names the line and what is wrong.
    static Result<EscalationPolicy> parse(std::string_view text, const std::string& source = "policy.toml");
    // <configDir>/policy.toml, else the defaults; a file that cannot be read
    // or parsed gives a policy that denies everything (brokenBecause says why).
    static EscalationPolicy load(const std::string& configDir);

    struct Verdict {
        Grant grant = Grant::Deny;
        std::string reason;  // for a deny or an auto: which rule decided it
    };
    // The strictest of the request's parts: one denied part denies it all,
    // one part that needs a person makes the whole request ask.
    Verdict decide(const EscalationRequest& request) const;
};

}  // namespace moat
