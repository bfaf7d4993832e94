// SPDX-License-Identifier: Apache-2.0
#include "policy/escalation_policy.h"

#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "egress/host_pattern.h"

namespace moat {

namespace {

// A protocol-wide cap (docs/moatd.md): an agent's request holds its HTTP
// call open while it waits, and a person far away should not keep it longer.
constexpr std::chrono::seconds kMaximumTimeout{600};

std::optional<Grant> grantFromString(std::string_view text)
{
    for (Grant grant : {Grant::Auto, Grant::Ask, Grant::Deny}) {
        if (text == toString(grant)) {
            return grant;
        }
    }
    return std::nullopt;
}

// policy.toml keys may be written with '-' or '_' (allow-host, net_open).
std::string keyName(std::string_view key)
{
    std::string name(key);
    for (char& c : name) {
        if (c == '-') {
            c = '_';
        }
    }
    return name;
}

struct ParseFailure {
    std::string what;
};

std::string where(const toml::node& node, const std::string& source)
{
    const auto& begin = node.source().begin;
    return source + ":" + std::to_string(begin.line) + ": ";
}

Grant grantAt(const toml::node& node, const std::string& key, const std::string& source)
{
    const auto* text = node.as_string();
    std::optional<Grant> grant = text ? grantFromString(text->get()) : std::nullopt;
    if (!grant) {
        throw ParseFailure{where(node, source) + key + " must be \"auto\", \"ask\" or \"deny\""};
    }
    return *grant;
}

std::vector<std::string> patternsAt(const toml::node& node, const std::string& key, const std::string& source)
{
    const auto* array = node.as_array();
    if (!array) {
        throw ParseFailure{where(node, source) + key + " must be a list of host patterns, e.g. [\"*.pypi.org\"]"};
    }
    std::vector<std::string> patterns;
    for (const auto& item : *array) {
        const auto* text = item.as_string();
        if (!text) {
            throw ParseFailure{where(item, source) + key + " must hold strings (host patterns)"};
        }
        auto pattern = HostPattern::parse(text->get());
        if (!pattern) {
            throw ParseFailure{where(item, source) + key + ": " + pattern.error().message()};
        }
        patterns.push_back(pattern->toString());
    }
    return patterns;
}

void readAllowHost(const toml::node& node, EscalationPolicy& policy, const std::string& source)
{
    const auto* table = node.as_table();
    if (!table) {
        throw ParseFailure{where(node, source) + "allow_host must be a table: [allow_host]"};
    }
    for (const auto& [rawKey, value] : *table) {
        const std::string key = keyName(rawKey.str());
        if (key == "default") {
            policy.allowHost = grantAt(value, "allow_host.default", source);
        } else if (key == "auto") {
            policy.autoHosts = patternsAt(value, "allow_host.auto", source);
        } else if (key == "deny") {
            policy.denyHosts = patternsAt(value, "allow_host.deny", source);
        } else {
            throw ParseFailure{where(value, source) + "unknown key allow_host." + std::string(rawKey.str()) +
                               " (known: default, auto, deny)"};
        }
    }
}

// The ports a pattern names: its one port, or HTTP and HTTPS.
std::vector<uint16_t> portsOf(const HostPattern& pattern)
{
    if (pattern.port()) {
        return {*pattern.port()};
    }
    return {HostPattern::kDefaultPorts.begin(), HostPattern::kDefaultPorts.end()};
}

bool isSubdomainOrSame(const std::string& name, const std::string& suffix)
{
    return name == suffix ||
           (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
            name[name.size() - suffix.size() - 1] == '.');
}

// Whether every destination `requested` names is also named by `rule`.
bool covers(const HostPattern& rule, const HostPattern& requested)
{
    for (uint16_t port : portsOf(requested)) {
        bool covered = false;
        if (requested.isIpLiteral()) {
            covered = rule.matchesAddress(requested.address(), port);
        } else if (requested.isWildcard()) {
            // *.a.b.c is inside *.b.c: every proper subdomain of a.b.c is one of b.c.
            covered = rule.isWildcard() && rule.coversPort(port) && isSubdomainOrSame(requested.name(), rule.name());
        } else {
            covered = rule.matches(requested.name(), port);
        }
        if (!covered) {
            return false;
        }
    }
    return true;
}

// Whether any destination `requested` names is also named by `rule` (ports
// aside: a deny rule errs on the side of refusing).
bool overlaps(const HostPattern& rule, const HostPattern& requested)
{
    if (rule.isIpLiteral() || requested.isIpLiteral()) {
        return rule.isIpLiteral() && requested.isIpLiteral() && rule.address() == requested.address();
    }
    if (requested.isWildcard() && rule.isWildcard()) {
        return isSubdomainOrSame(requested.name(), rule.name()) || isSubdomainOrSame(rule.name(), requested.name());
    }
    if (requested.isWildcard()) {
        return rule.name() != requested.name() && isSubdomainOrSame(rule.name(), requested.name());
    }
    if (rule.isWildcard()) {
        return requested.name() != rule.name() && isSubdomainOrSame(requested.name(), rule.name());
    }
    return rule.name() == requested.name();
}

int strictness(Grant grant)
{
    return grant == Grant::Auto ? 0 : grant == Grant::Ask ? 1 : 2;
}

}  // namespace

std::string toString(Grant grant)
{
    switch (grant) {
        case Grant::Auto:
            return "auto";
        case Grant::Ask:
            return "ask";
        case Grant::Deny:
            return "deny";
    }
    return "deny";
}

Result<EscalationPolicy> EscalationPolicy::parse(std::string_view text, const std::string& source)
{
    EscalationPolicy policy;
    try {
        const toml::table table = toml::parse(text, source);
        for (const auto& [rawKey, value] : table) {
            const std::string key = keyName(rawKey.str());
            if (key == "timeout") {
                const auto* spelled = value.as_string();
                auto duration = spelled ? Duration::parse(spelled->get()) : Result<Duration>(Error{"not a string"});
                if (!duration || duration->seconds() > kMaximumTimeout) {
                    throw ParseFailure{where(value, source) +
                                       "timeout must be a duration of at most 600s, written like \"120s\" or \"5m\""};
                }
                policy.timeout = duration.value();
            } else if (key == "sudo") {
                policy.sudo = grantAt(value, "sudo", source);
            } else if (key == "docker") {
                policy.docker = grantAt(value, "docker", source);
            } else if (key == "net_open") {
                policy.netOpen = grantAt(value, "net_open", source);
            } else if (key == "allow_host") {
                readAllowHost(value, policy, source);
            } else {
                throw ParseFailure{where(value, source) + "unknown key " + std::string(rawKey.str()) +
                                   " (known: timeout, sudo, docker, net_open, [allow_host])"};
            }
        }
    } catch (const toml::parse_error& error) {
        return Error{source + ":" + std::to_string(error.source().begin.line) + ": " + std::string(error.description()),
                     0, "Fix the file (resources/policy.toml shows every key) or remove it for the defaults"};
    } catch (const ParseFailure& failure) {
        return Error{failure.what, 0,
                     "Fix the file (resources/policy.toml shows every key) or remove it for the defaults"};
    }
    return policy;
}

EscalationPolicy EscalationPolicy::load(const std::string& configDir)
{
    const std::string path = configDir + "/policy.toml";
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    if (!exists && !ec) {
        return defaults();
    }
    std::ifstream file(path, std::ios::binary);
    if (ec || !file) {
        EscalationPolicy broken;
        broken.brokenBecause = Error::fromErrno("cannot read " + path, ec ? ec.value() : errno).message();
        return broken;
    }
    std::ostringstream text;
    text << file.rdbuf();
    auto parsed = parse(text.str(), path);
    if (!parsed) {
        EscalationPolicy broken;
        broken.brokenBecause = parsed.error().message();
        return broken;
    }
    return std::move(parsed.value());
}

EscalationPolicy::Verdict EscalationPolicy::decide(const EscalationRequest& request) const
{
    if (!brokenBecause.empty()) {
        return {Grant::Deny, "the approval policy is unusable, so every request is refused: " + brokenBecause};
    }
    Verdict verdict{Grant::Auto, {}};
    std::vector<std::string> autoReasons;
    auto consider = [&](Grant grant, const std::string& why) {
        if (strictness(grant) > strictness(verdict.grant)) {
            verdict = {grant, why};
        } else if (grant == verdict.grant && grant == Grant::Deny && verdict.reason.empty()) {
            verdict.reason = why;
        }
        if (grant == Grant::Auto) {
            autoReasons.push_back(why);
        }
    };
    if (request.sudo) {
        consider(sudo, "sudo is " + toString(sudo) + " in policy.toml");
    }
    if (request.docker) {
        consider(docker, "docker is " + toString(docker) + " in policy.toml");
    }
    if (request.netOpen) {
        consider(netOpen, "net_open is " + toString(netOpen) + " in policy.toml");
    }
    for (const auto& host : request.allowHosts) {
        auto requested = HostPattern::parse(host);
        if (!requested) {
            // The parser upstream refuses these; refusing here too keeps
            // this function safe on its own.
            consider(Grant::Deny, "'" + host + "' is not a host pattern");
            continue;
        }
        std::optional<Grant> decided;
        for (const auto& rule : denyHosts) {
            if (overlaps(HostPattern::parse(rule).value(), requested.value())) {
                consider(Grant::Deny, "allow-host " + host + " is denied by " + rule + " in policy.toml");
                decided = Grant::Deny;
                break;
            }
        }
        if (decided) {
            continue;
        }
        for (const auto& rule : autoHosts) {
            if (covers(HostPattern::parse(rule).value(), requested.value())) {
                consider(Grant::Auto, "allow-host " + host + " matches " + rule);
                decided = Grant::Auto;
                break;
            }
        }
        if (!decided) {
            consider(allowHost, "allow-host is " + toString(allowHost) + " in policy.toml");
        }
    }
    if (request.empty()) {
        return {Grant::Deny, "the request asks for nothing"};
    }
    if (verdict.grant == Grant::Auto) {
        std::string joined;
        for (const auto& reason : autoReasons) {
            joined += (joined.empty() ? "" : "; ") + reason;
        }
        verdict.reason = joined;
    }
    return verdict;
}

}  // namespace moat
