// SPDX-License-Identifier: Apache-2.0
#include "policy/http_rules.h"

#include <algorithm>

namespace moat {

namespace {

constexpr size_t kRulesListed = 5;

// The destination as a person reads it in a reason: the host, its port when
// it is not one of the defaults, and a path shortened to fit a line. Only
// printable ASCII, since the host and path come from the agent.
std::string destination(std::string_view host, uint16_t port, std::string_view path)
{
    std::string out;
    for (char c : host.substr(0, 255)) {
        const auto byte = static_cast<unsigned char>(c);
        out += byte < 0x20 || byte >= 0x7f ? '?' : (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    }
    if (port != 80 && port != 443) {
        out += ":" + std::to_string(port);
    }
    for (char c : path.substr(0, 200)) {
        const auto byte = static_cast<unsigned char>(c);
        out += byte < 0x20 || byte >= 0x7f ? '?' : c;
    }
    return path.size() > 200 ? out + "..." : out;
}

std::string printableMethod(std::string_view method)
{
    std::string out;
    for (char c : method.substr(0, 20)) {
        out += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : (c > 0x20 && c < 0x7f ? c : '?');
    }
    return out;
}

const char* verbOf(RuleAction action)
{
    return action == RuleAction::Allow ? "allowed" : action == RuleAction::Ask ? "held for a person" : "denied";
}

}  // namespace

Result<HttpRuleSet> HttpRuleSet::parse(const std::vector<std::string>& texts)
{
    HttpRuleSet set;
    for (const auto& text : texts) {
        auto rule = parseRule(text);
        if (!rule) {
            return rule.error();
        }
        const HostPattern* host = nullptr;
        if (const auto* http = std::get_if<HttpRule>(&rule.value())) {
            set.http_.push_back(*http);
            host = &set.http_.back().host();
        } else {
            set.push_.push_back(std::get<PushRule>(rule.value()));
            host = &set.push_.back().host();
        }
        if (std::find(set.hosts_.begin(), set.hosts_.end(), *host) == set.hosts_.end()) {
            set.hosts_.push_back(*host);
        }
        set.rules_.push_back(std::move(rule.value()));
    }
    return set;
}

bool HttpRuleSet::hasRulesFor(std::string_view host, uint16_t port) const
{
    return std::any_of(hosts_.begin(), hosts_.end(), [&](const HostPattern& p) { return p.matches(host, port); });
}

bool HttpRuleSet::hasPushRulesFor(std::string_view host, uint16_t port) const
{
    return std::any_of(push_.begin(), push_.end(), [&](const PushRule& r) { return r.matchesHost(host, port); });
}

std::optional<std::string> HttpRuleSet::pushRepository(std::string_view host, uint16_t port,
                                                       std::string_view target) const
{
    if (!hasPushRulesFor(host, port)) {
        return std::nullopt;
    }
    const auto path = canonicalRequestPath(target);
    if (!path) {
        return std::nullopt;
    }
    return pushRepositoryOfPath(path.value());
}

RuleDecision HttpRuleSet::decide(std::string_view method, std::string_view host, uint16_t port,
                                 std::string_view target) const
{
    if (!hasRulesFor(host, port)) {
        return {RuleAction::Allow, {}, "no rule names " + destination(host, port, "") + "; only --allow-host applies"};
    }
    const auto path = canonicalRequestPath(target);
    if (!path) {
        // The server might read such a path as one no rule was written for.
        return {RuleAction::Deny, {}, path.error().what};
    }
    const std::string what = printableMethod(method) + " " + destination(host, port, path.value());
    if (hasPushRulesFor(host, port) && pushRepositoryOfPath(path.value())) {
        return {
            RuleAction::Deny, {}, what + " is a git push, which is judged by its ref updates, not by its request line"};
    }
    for (const auto& rule : http_) {
        if (rule.matches(method, host, port, path.value())) {
            return {rule.action(), rule.text(),
                    what + " is " + verbOf(rule.action()) + " by rule '" + rule.text() + "'"};
        }
    }
    std::string listed;
    size_t count = 0;
    for (const auto& rule : http_) {
        if (rule.matchesHost(host, port)) {
            if (count < kRulesListed) {
                listed += (listed.empty() ? "'" : ", '") + rule.text() + "'";
            }
            ++count;
        }
    }
    if (count > kRulesListed) {
        listed += " and " + std::to_string(count - kRulesListed) + " more";
    }
    return {RuleAction::Deny,
            {},
            "no rule allows " + what + "; " +
                (listed.empty() ? "this host has push rules only" : "rules for this host: " + listed)};
}

RuleDecision HttpRuleSet::decidePush(std::string_view host, uint16_t port, std::string_view repository,
                                     const std::vector<RefUpdate>& updates) const
{
    const std::string where = destination(host, port, "") + " " + destination("", 443, repository);
    if (updates.empty()) {
        return {RuleAction::Deny, {}, "the push to " + where + " updates no ref"};
    }
    RuleDecision strictest{RuleAction::Allow, {}, {}};
    bool first = true;
    for (const auto& update : updates) {
        RuleDecision decision{RuleAction::Deny,
                              {},
                              "no push rule allows updating " + destination("", 443, update.refName) + " of " + where};
        for (const auto& rule : push_) {
            if (rule.matches(host, port, repository, update.refName)) {
                decision = {rule.action(), rule.text(),
                            "updating " + destination("", 443, update.refName) + " of " + where + " is " +
                                verbOf(rule.action()) + " by rule '" + rule.text() + "'"};
                break;
            }
        }
        // The first ref with the strictest action names the push's reason.
        if (first || strictness(decision.action) > strictness(strictest.action)) {
            strictest = decision;
            first = false;
        }
    }
    if (strictest.action == RuleAction::Allow && updates.size() > 1) {
        strictest.reason = "every ref of the push to " + where + " is allowed; first: " + strictest.reason;
    }
    return strictest;
}

std::vector<std::string> HttpRuleSet::texts() const
{
    std::vector<std::string> out;
    for (const auto& rule : rules_) {
        out.push_back(std::visit([](const auto& r) { return r.text(); }, rule));
    }
    return out;
}

}  // namespace moat
