// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/error.h"
#include "egress/host_pattern.h"
#include "policy/path_glob.h"

namespace moat {

// What a rule does with a request it matches (docs/rules.md).
enum class RuleAction { Allow, Ask, Deny };

std::string toString(RuleAction action);
// Deny is stricter than Ask, Ask than Allow.
int strictness(RuleAction action);

// One `--rule 'METHOD HOST PATH ACTION'`, or the same string in a profile:
//   METHOD  an HTTP method, a comma-separated list of them (GET,HEAD), or *;
//           compared without regard to case
//   HOST    as --allow-host (HostPattern): name, *.suffix, address, :PORT
//   PATH    a PathGlob over the request path, never the query string;
//           percent-escapes normalised as for requests (canonicalPathPattern)
//   ACTION  allow | deny | ask
// Fields are separated by spaces or tabs. A rule that cannot mean what its
// author wrote is refused with an Error naming the rule and the field.
class HttpRule {
public:
    static Result<HttpRule> parse(std::string_view text);

    // path is canonical (canonicalRequestPath), method as sent by the client.
    bool matches(std::string_view method, std::string_view host, uint16_t port, std::string_view path) const;
    bool matchesHost(std::string_view host, uint16_t port) const { return host_.matches(host, port); }

    RuleAction action() const { return action_; }
    const HostPattern& host() const { return host_; }
    // The canonical spelling: upper-case methods, the host's toString(), the
    // normalised path, the action. Parses back to an equal rule.
    const std::string& text() const { return text_; }

private:
    HttpRule(std::vector<std::string> methods, HostPattern host, PathGlob path, RuleAction action);

    std::vector<std::string> methods_;  // upper case; empty for '*'
    HostPattern host_;
    PathGlob path_;
    RuleAction action_;
    std::string text_;
};

// One `push HOST REPO REF ACTION`: a git push over smart HTTP
// (POST /REPO[.git]/git-receive-pack) judged per ref it updates:
//   REPO  a PathGlob over the repository path without '/' around it and
//         without ".git", as in owner/name or owner/*
//   REF   a PathGlob over the full ref name: refs/heads/main, refs/tags/**;
//         or ** for every ref
// For REPO and REF a trailing "/**" does not cover the name before it:
// "refs/heads/**" is every branch, never a ref called "refs/heads".
class PushRule {
public:
    static Result<PushRule> parse(std::string_view text);

    bool matchesHost(std::string_view host, uint16_t port) const { return host_.matches(host, port); }
    bool matches(std::string_view host, uint16_t port, std::string_view repository, std::string_view ref) const;

    RuleAction action() const { return action_; }
    const HostPattern& host() const { return host_; }
    const std::string& text() const { return text_; }

private:
    PushRule(HostPattern host, PathGlob repository, PathGlob ref, RuleAction action);

    HostPattern host_;
    PathGlob repository_;
    PathGlob ref_;
    RuleAction action_;
    std::string text_;
};

using Rule = std::variant<HttpRule, PushRule>;

// A PushRule when the first field is "push", else an HttpRule.
Result<Rule> parseRule(std::string_view text);

// The repository a smart-HTTP push path names: "/o/r.git/git-receive-pack"
// gives "o/r", "/git-receive-pack" gives "" (which no REPO matches);
// nullopt when the canonical path does not end in "/git-receive-pack".
std::optional<std::string> pushRepositoryOfPath(std::string_view canonicalPath);

}  // namespace moat
