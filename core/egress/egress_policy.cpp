// SPDX-License-Identifier: Apache-2.0
#include "egress/egress_policy.h"

#include <algorithm>
#include <optional>

namespace moat {

namespace {

// The agent chooses the host text, and reasons end up on a terminal and in
// the timeline: never echo a byte that is not visible ASCII (an escape
// sequence, a newline forging a second log line), and never echo much.
std::string printable(std::string_view text)
{
    constexpr size_t kMaxEcho = 80;
    std::string out;
    for (char c : text.substr(0, kMaxEcho)) {
        out += (c > 0x20 && c < 0x7f) ? c : '?';
    }
    if (text.size() > kMaxEcho) {
        out += "...";
    }
    return out;
}

std::string portSuffix(uint16_t port)
{
    return ":" + std::to_string(port);
}

// How an address is written in an --allow-host value.
std::string literal(const IpAddress& address)
{
    return address.isV4() ? address.toString() : "[" + address.toString() + "]";
}

// "--allow-host example.org" for the ports a bare name covers, with the
// port otherwise.
std::string nameFlag(const std::string& name, uint16_t port)
{
    const auto& defaults = HostPattern::kDefaultPorts;
    const bool covered = std::find(defaults.begin(), defaults.end(), port) != defaults.end();
    return "--allow-host " + name + (covered ? std::string() : portSuffix(port));
}

// Addresses are allowed one port at a time: "--allow-host 127.0.0.1" would
// also open port 80 of the host's loopback when the agent asked for 443.
std::string addressFlag(const IpAddress& address, uint16_t port)
{
    return "--allow-host " + literal(address) + portSuffix(port);
}

EgressDecision allow(std::string reason)
{
    return EgressDecision{true, std::move(reason), {}};
}

EgressDecision deny(std::string reason, std::string suggestion = {})
{
    if (!suggestion.empty()) {
        reason += "; run with " + suggestion;
    }
    return EgressDecision{false, std::move(reason), std::move(suggestion)};
}

// A host as the agent or a header wrote it: an address (brackets optional
// around IPv6) or a normalised name; nullopt when it is neither.
struct Host {
    std::optional<IpAddress> address;
    std::string name;
};

std::optional<Host> readHost(std::string_view text)
{
    if (auto address = IpAddress::parse(text); address.ok()) {
        return Host{std::move(address).value(), {}};
    }
    if (auto name = HostPattern::normalizeName(text); name.ok()) {
        return Host{std::nullopt, std::move(name).value()};
    }
    return std::nullopt;
}

bool sameHost(const Host& a, const Host& b)
{
    if (a.address || b.address) {
        return a.address && b.address && a.address->sameAddress(*b.address);
    }
    return a.name == b.name;
}

}  // namespace

Result<EgressPolicy> EgressPolicy::fromArguments(std::span<const std::string> values)
{
    std::vector<HostPattern> patterns;
    for (const std::string& value : values) {
        auto pattern = HostPattern::parse(value);
        if (!pattern) {
            return pattern.error();
        }
        patterns.push_back(std::move(pattern).value());
    }
    return EgressPolicy(std::move(patterns));
}

namespace {

// RFC 6761 reserves localhost and every name under it for the loopback;
// Debian's /etc/hosts adds the ip6- names.
bool isLoopbackName(std::string_view name)
{
    static constexpr std::string_view kNames[] = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"};
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames) || name.ends_with(".localhost");
}

// What the clouds' own resolvers answer with a metadata address
// (169.254.169.254): Google Cloud's two names and AWS's two.
bool isMetadataName(std::string_view name)
{
    static constexpr std::string_view kNames[] = {"metadata", "metadata.google.internal", "instance-data",
                                                  "instance-data.ec2.internal"};
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

}  // namespace

bool EgressPolicy::isSensitiveName(std::string_view name)
{
    return isLoopbackName(name) || isMetadataName(name);
}

EgressDecision EgressPolicy::decideAddress(const IpAddress& address, std::string_view written, uint16_t port) const
{
    std::string shown = literal(address) + portSuffix(port);
    if (written != address.toString() && written != literal(address)) {
        shown += " (written " + printable(written) + ")";
    }
    for (const HostPattern& pattern : patterns_) {
        if (pattern.matchesAddress(address, port)) {
            return allow(shown + " is allowed by --allow-host " + pattern.toString());
        }
    }
    if (!address.zone().empty()) {
        return deny(shown + " names a network interface, and such addresses are never reached");
    }
    return deny(shown + " is an IP address (" + address.describe() +
                    "), reached only when allowed exactly with its port",
                addressFlag(address, port));
}

EgressDecision EgressPolicy::decideName(std::string_view host, uint16_t port) const
{
    if (port == 0) {
        return deny(printable(host) + ":0 is not a destination: port 0 does not exist");
    }
    if (const auto address = IpAddress::parse(host); address.ok()) {
        return decideAddress(address.value(), host, port);
    }
    const auto name = HostPattern::normalizeName(host);
    if (!name) {
        return deny("'" + printable(host) + "' is neither a valid host name nor an IP address");
    }
    const std::string shown = name.value() + portSuffix(port);
    const bool sensitive = isSensitiveName(name.value());
    bool refusedWildcard = false;
    for (const HostPattern& pattern : patterns_) {
        if (!pattern.matches(name.value(), port)) {
            continue;
        }
        if (sensitive && pattern.isWildcard()) {
            refusedWildcard = true;
            continue;
        }
        return allow(shown + " is allowed by --allow-host " + pattern.toString());
    }
    if (sensitive) {
        // Only an exact pattern lifts this: a wildcard written for a domain
        // must not also hand out the host's loopback or its cloud credentials.
        const char* what = isLoopbackName(name.value()) ? " is a name of this machine's loopback"
                                                         : " is the name of a cloud metadata service";
        return deny(shown + what + (refusedWildcard ? ", which a wildcard never allows" : " and is not allowed"),
                    "--allow-host " + name.value() + portSuffix(port));
    }
    return deny(shown + " is not allowed", nameFlag(name.value(), port));
}

EgressDecision EgressPolicy::decideResolved(std::string_view host, uint16_t port, const IpAddress& resolved) const
{
    const EgressDecision byName = decideName(host, port);
    if (!byName.allowed) {
        return byName;
    }
    // An address the agent named, allowed exactly, needs no second look.
    if (const auto named = IpAddress::parse(host); named.ok() && named->sameAddress(resolved)) {
        return byName;
    }
    const std::string shown = literal(resolved) + portSuffix(port);
    for (const HostPattern& pattern : patterns_) {
        if (pattern.matchesAddress(resolved, port)) {
            return allow(byName.reason + "; " + shown + " is allowed by --allow-host " + pattern.toString());
        }
    }
    const std::string name = printable(host) + portSuffix(port);
    if (!resolved.zone().empty()) {
        return deny(name + " resolved to " + shown + ", which names a network interface and is never reached");
    }
    if (!resolved.isPublicUnicast()) {
        return deny(name + " resolved to " + shown + ", a " + resolved.describe() + " address, which is not allowed",
                    addressFlag(resolved, port));
    }
    return byName;
}

bool EgressPolicy::sameDestination(std::string_view host, uint16_t port, std::string_view otherHost, uint16_t otherPort)
{
    if (port == 0 || port != otherPort) {
        return false;
    }
    const auto a = readHost(host);
    const auto b = readHost(otherHost);
    return a && b && sameHost(*a, *b);
}

bool EgressPolicy::hostHeaderNames(std::string_view hostHeader, uint16_t defaultPort, std::string_view host, uint16_t port)
{
    std::string_view headerHost = hostHeader;
    std::string_view portText;
    bool hasPort = false;
    if (hostHeader.starts_with('[')) {
        const size_t close = hostHeader.find(']');
        if (close == std::string_view::npos) {
            return false;
        }
        headerHost = hostHeader.substr(0, close + 1);
        const std::string_view after = hostHeader.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') {
                return false;
            }
            portText = after.substr(1);
            hasPort = true;
        }
    } else if (const size_t colon = hostHeader.find(':'); colon != std::string_view::npos) {
        // An unbracketed IPv6 address is not a valid Host header.
        if (hostHeader.find(':', colon + 1) != std::string_view::npos) {
            return false;
        }
        headerHost = hostHeader.substr(0, colon);
        portText = hostHeader.substr(colon + 1);
        hasPort = true;
    }
    uint16_t headerPort = defaultPort;
    // "host:" has an empty port, which RFC 3986 reads as the default.
    if (hasPort && !portText.empty()) {
        if (portText.size() > 5 ||
            !std::all_of(portText.begin(), portText.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            return false;
        }
        const unsigned long value = std::stoul(std::string(portText));
        if (value == 0 || value > 65535) {
            return false;
        }
        headerPort = static_cast<uint16_t>(value);
    }
    return sameDestination(headerHost, headerPort, host, port);
}

bool EgressPolicy::serverNameNames(std::string_view serverName, std::string_view host)
{
    const auto sni = readHost(serverName);
    const auto target = readHost(host);
    return sni && target && !sni->address && sameHost(*sni, *target);
}

}  // namespace moat
