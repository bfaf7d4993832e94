// SPDX-License-Identifier: Apache-2.0
#include "policy/http_rule.h"

#include <algorithm>
#include <optional>

namespace moat {

namespace {

constexpr size_t kMaxRuleLength = 2048;
constexpr std::string_view kReceivePack = "/git-receive-pack";

const char* const kHttpHint =
    "Write 'METHOD HOST PATH ACTION', as in 'GET api.github.com /repos/OWNER/REPO/issues/** allow', "
    "or 'push HOST REPO REF ACTION', as in 'push github.com OWNER/REPO refs/heads/main ask' (docs/rules.md)";

// The rule as it goes into a message: a person typed it, but it may come
// from a file, and a terminal should not interpret what it holds.
std::string quoted(std::string_view text)
{
    std::string out = "'";
    for (char c : text.substr(0, 300)) {
        const auto byte = static_cast<unsigned char>(c);
        out += (byte < 0x20 || byte == 0x7f) ? '?' : c;
    }
    return out + (text.size() > 300 ? "...'" : "'");
}

Error badRule(std::string_view text, const std::string& why)
{
    return Error{"invalid rule " + quoted(text) + ": " + why, 0, kHttpHint};
}

std::vector<std::string_view> fields(std::string_view text)
{
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) {
            ++i;
        }
        const size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') {
            ++i;
        }
        if (i > start) {
            out.push_back(text.substr(start, i - start));
        }
    }
    return out;
}

std::string upper(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; });
    return out;
}

// RFC 9110 tchar: what a method may be spelled with.
bool isToken(std::string_view text)
{
    static constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               kSymbols.find(c) != std::string_view::npos;
    });
}

std::optional<RuleAction> actionFrom(std::string_view text)
{
    for (RuleAction action : {RuleAction::Allow, RuleAction::Ask, RuleAction::Deny}) {
        if (text == toString(action)) {
            return action;
        }
    }
    return std::nullopt;
}

Result<HostPattern> hostField(std::string_view rule, std::string_view field)
{
    auto host = HostPattern::parse(field);
    if (!host) {
        // HostPattern's message speaks of --allow-host; keep only its reason.
        const std::string& what = host.error().what;
        const size_t colon = what.find("': ");
        return badRule(
            rule, "HOST '" + std::string(field) + "': " + (colon == std::string::npos ? what : what.substr(colon + 3)));
    }
    return host;
}

// A glob over names made of the characters git and forges use; '*' aside.
std::string nameGlobProblem(std::string_view text, std::string_view extra)
{
    for (char c : text) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_' || c == '.' || c == '/' || c == '*' || extra.find(c) != std::string_view::npos;
        if (!ok) {
            const auto byte = static_cast<unsigned char>(c);
            return byte < 0x20 || byte >= 0x7f ? "it has a control or non-ASCII character"
                                               : std::string("'") + c + "' cannot appear in it";
        }
    }
    if (text.starts_with('/') || text.ends_with('/')) {
        return "it starts or ends with '/'";
    }
    if (text.find("//") != std::string_view::npos) {
        return "it has an empty segment ('//')";
    }
    for (std::string_view rest = text; !rest.empty();) {
        const std::string_view segment = rest.substr(0, rest.find('/'));
        if (segment == "." || segment == "..") {
            return "it has a '.' or '..' segment";
        }
        rest.remove_prefix(std::min(rest.size(), segment.size() + 1));
    }
    return {};
}

Result<PathGlob> globField(std::string_view rule, std::string_view name, std::string_view field,
                           PathGlob::Trailing trailing)
{
    auto glob = PathGlob::parse(field, trailing);
    if (!glob) {
        return badRule(rule, std::string(name) + " '" + std::string(field) + "': " + glob.error().what);
    }
    return glob;
}

}  // namespace

std::string toString(RuleAction action)
{
    switch (action) {
        case RuleAction::Allow:
            return "allow";
        case RuleAction::Ask:
            return "ask";
        case RuleAction::Deny:
            return "deny";
    }
    return "deny";
}

int strictness(RuleAction action)
{
    return action == RuleAction::Allow ? 0 : action == RuleAction::Ask ? 1 : 2;
}

HttpRule::HttpRule(std::vector<std::string> methods, HostPattern host, PathGlob path, RuleAction action)
    : methods_(std::move(methods)), host_(std::move(host)), path_(std::move(path)), action_(action)
{
    std::string method = methods_.empty() ? "*" : "";
    for (const auto& name : methods_) {
        method += (method.empty() ? "" : ",") + name;
    }
    text_ = method + " " + host_.toString() + " " + path_.text() + " " + toString(action_);
}

Result<HttpRule> HttpRule::parse(std::string_view text)
{
    if (text.size() > kMaxRuleLength) {
        return badRule(text, "it is longer than 2048 characters");
    }
    const auto parts = fields(text);
    if (!parts.empty() && parts[0] == "push") {
        return badRule(text, "a push rule has five fields: push HOST REPO REF ACTION");
    }
    if (parts.size() != 4) {
        return badRule(text, "it has " + std::to_string(parts.size()) +
                                 " fields; an HTTP rule has four: METHOD HOST PATH ACTION (quote the whole rule)");
    }
    std::vector<std::string> methods;
    if (parts[0] != "*") {
        for (std::string_view rest = parts[0];;) {
            const size_t comma = rest.find(',');
            const std::string_view name = rest.substr(0, comma);
            if (!isToken(name) || name == "*") {
                return badRule(text, "METHOD '" + std::string(parts[0]) +
                                         "' is not an HTTP method, a comma-separated list of them, or '*'");
            }
            if (std::find(methods.begin(), methods.end(), upper(name)) == methods.end()) {
                methods.push_back(upper(name));
            }
            if (comma == std::string_view::npos) {
                break;
            }
            rest.remove_prefix(comma + 1);
        }
    }
    auto host = hostField(text, parts[1]);
    if (!host) {
        return host.error();
    }
    auto path = canonicalPathPattern(parts[2]);
    if (!path) {
        return badRule(text, "PATH '" + std::string(parts[2]) + "': " + path.error().what +
                                 " (write the path as the server sees it, as in /repos/OWNER/REPO/**)");
    }
    auto glob = globField(text, "PATH", path.value(), PathGlob::Trailing::CoversParent);
    if (!glob) {
        return glob.error();
    }
    const auto action = actionFrom(parts[3]);
    if (!action) {
        return badRule(text, "ACTION '" + std::string(parts[3]) + "' must be allow, deny or ask");
    }
    return HttpRule(std::move(methods), std::move(host.value()), std::move(glob.value()), *action);
}

bool HttpRule::matches(std::string_view method, std::string_view host, uint16_t port, std::string_view path) const
{
    if (!methods_.empty() && std::find(methods_.begin(), methods_.end(), upper(method)) == methods_.end()) {
        return false;
    }
    return host_.matches(host, port) && path_.matches(path);
}

PushRule::PushRule(HostPattern host, PathGlob repository, PathGlob ref, RuleAction action)
    : host_(std::move(host)), repository_(std::move(repository)), ref_(std::move(ref)), action_(action)
{
    text_ = "push " + host_.toString() + " " + repository_.text() + " " + ref_.text() + " " + toString(action_);
}

Result<PushRule> PushRule::parse(std::string_view text)
{
    if (text.size() > kMaxRuleLength) {
        return badRule(text, "it is longer than 2048 characters");
    }
    const auto parts = fields(text);
    if (parts.size() != 5 || parts[0] != "push") {
        return badRule(text, "it has " + std::to_string(parts.size()) +
                                 " fields; a push rule has five: push HOST REPO REF ACTION (quote the whole rule)");
    }
    auto host = hostField(text, parts[1]);
    if (!host) {
        return host.error();
    }
    std::string_view repository = parts[2];
    if (repository.ends_with(".git")) {
        repository.remove_suffix(4);  // pushes to o/r and o/r.git reach the same repository
    }
    if (const std::string why = nameGlobProblem(repository, ""); !why.empty() || repository.empty()) {
        return badRule(text, "REPO '" + std::string(parts[2]) + "': " + (why.empty() ? "it is empty" : why) +
                                 " (write it as OWNER/NAME, as in the clone URL's path)");
    }
    auto repositoryGlob = globField(text, "REPO", repository, PathGlob::Trailing::Exact);
    if (!repositoryGlob) {
        return repositoryGlob.error();
    }
    const std::string_view ref = parts[3];
    if (ref != "**" && !ref.starts_with("refs/")) {
        return badRule(text, "REF '" + std::string(ref) +
                                 "' is not a full ref name; write refs/heads/main or refs/tags/*, or ** for every ref");
    }
    if (const std::string why = nameGlobProblem(ref, "@+"); !why.empty()) {
        return badRule(text, "REF '" + std::string(ref) + "': " + why);
    }
    auto refGlob = globField(text, "REF", ref, PathGlob::Trailing::Exact);
    if (!refGlob) {
        return refGlob.error();
    }
    const auto action = actionFrom(parts[4]);
    if (!action) {
        return badRule(text, "ACTION '" + std::string(parts[4]) + "' must be allow, deny or ask");
    }
    return PushRule(std::move(host.value()), std::move(repositoryGlob.value()), std::move(refGlob.value()), *action);
}

bool PushRule::matches(std::string_view host, uint16_t port, std::string_view repository, std::string_view ref) const
{
    return host_.matches(host, port) && repository_.matches(repository) && ref_.matches(ref);
}

Result<Rule> parseRule(std::string_view text)
{
    const auto parts = fields(text);
    if (!parts.empty() && parts[0] == "push") {
        auto rule = PushRule::parse(text);
        return rule ? Result<Rule>(Rule(std::move(rule.value()))) : Result<Rule>(rule.error());
    }
    auto rule = HttpRule::parse(text);
    return rule ? Result<Rule>(Rule(std::move(rule.value()))) : Result<Rule>(rule.error());
}

std::optional<std::string> pushRepositoryOfPath(std::string_view canonicalPath)
{
    if (!canonicalPath.ends_with(kReceivePack)) {
        return std::nullopt;
    }
    std::string_view repository = canonicalPath.substr(0, canonicalPath.size() - kReceivePack.size());
    if (repository.starts_with('/')) {
        repository.remove_prefix(1);
    }
    if (repository.ends_with(".git")) {
        repository.remove_suffix(4);
    }
    return std::string(repository);
}

}  // namespace moat
