// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "egress/host_pattern.h"
#include "policy/git_push.h"
#include "policy/http_rule.h"

namespace moat {

// What the rules say about one request.
struct RuleDecision {
    RuleAction action = RuleAction::Deny;
    std::string rule;    // the canonical text of the rule that decided; empty when none did
    std::string reason;  // one sentence for the 403 body, the event and the person asked
};

// The session's HTTP and push rules (docs/rules.md), in the order given:
// command-line rules first, then the profile's. Built once from the spec;
// const and thread-safe afterwards. No sockets: the proxy asks, this answers.
//
// Contract with the proxy:
//  - it intercepts exactly the hosts hasRulesFor() names (hostsWithRules()
//    lists their patterns) and tunnels every other allowed host blind;
//  - for each request on an intercepted host it asks pushRepository()
//    first: a repository means the request is a push, whose body it reads
//    (parseReceivePackCommands) and judges with decidePush(); otherwise it
//    judges the request with decide().
// host is the name the proxy connected to (the CONNECT target or the
// absolute-form URL's host, checked against the SNI), never a Host header.
class HttpRuleSet {
public:
    // Each text is parsed with parseRule(); the first bad one is the Error.
    static Result<HttpRuleSet> parse(const std::vector<std::string>& texts);

    bool empty() const { return http_.empty() && push_.empty(); }
    // Every distinct host pattern of a rule, in the order first named.
    const std::vector<HostPattern>& hostsWithRules() const { return hosts_; }
    // Whether any rule (HTTP or push) names this destination: such a host
    // is intercepted, and a request no rule allows there is denied.
    bool hasRulesFor(std::string_view host, uint16_t port) const;

    // The repository of a push (a request to ".../git-receive-pack", any
    // method) on a host that has push rules: such a request is decided only
    // by decidePush(). nullopt otherwise, including when the host has no
    // push rules (then decide() judges the POST by the HTTP rules) and when
    // the target is refused by canonicalRequestPath (decide() says why).
    std::optional<std::string> pushRepository(std::string_view host, uint16_t port, std::string_view target) const;

    // target is the request target in origin form ("/path?query"; for a
    // plain-HTTP proxy request, the absolute URL's path and query).
    // The first HTTP rule (in order) matching method, host, port and the
    // target's canonical path decides. A host without any rule: Allow (only
    // --allow-host applies; the proxy does not ask). A host with rules and
    // none matching, a target canonicalRequestPath refuses, or a push that
    // pushRepository() names: Deny, and the reason says why.
    RuleDecision decide(std::string_view method, std::string_view host, uint16_t port, std::string_view target) const;

    // A push, judged per ref update: each ref takes the action of the first
    // push rule matching host, repository and ref (none: deny), and the
    // push takes the strictest of them, naming the ref and rule that set
    // it. A push that updates nothing is denied.
    RuleDecision decidePush(std::string_view host, uint16_t port, std::string_view repository,
                            const std::vector<RefUpdate>& updates) const;

    // The canonical text of every rule, in order.
    std::vector<std::string> texts() const;

private:
    bool hasPushRulesFor(std::string_view host, uint16_t port) const;

    std::vector<Rule> rules_;  // as given, for texts()
    std::vector<HttpRule> http_;
    std::vector<PushRule> push_;
    std::vector<HostPattern> hosts_;
};

}  // namespace moat
