// SPDX-License-Identifier: Apache-2.0
#include "egress/host_pattern.h"

#include <algorithm>

namespace moat {

namespace {

constexpr size_t kMaxNameLength = 253;
constexpr size_t kMaxLabelLength = 63;

Error badPattern(std::string_view text, std::string_view why)
{
    return Error{"invalid --allow-host value '" + std::string(text) + "': " + std::string(why), 0,
                 "Write HOST or HOST:PORT, such as example.com, example.com:8443, *.example.com, "
                 "203.0.113.7:443 or [2001:db8::1]:443"};
}

bool isLabelChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// What the URL standard calls "ends in a number": a last label of digits, or
// 0x and hex digits. Such a name is an address to a browser and to inet_aton
// (or an invalid one); it must never be matched as a name.
bool looksNumeric(std::string_view label)
{
    if (!label.empty() && std::all_of(label.begin(), label.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return true;
    }
    if (label.size() >= 2 && label[0] == '0' && label[1] == 'x') {
        return std::all_of(label.begin() + 2, label.end(),
                           [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
    }
    return false;
}

// Why name is not a host name, or empty when it is; normalized receives the
// lower-case form without a trailing dot.
std::string nameProblem(std::string_view name, std::string& normalized)
{
    if (name.empty()) {
        return "the host is empty";
    }
    if (std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
        return "it is not ASCII; write an internationalised name in its punycode form (xn--...)";
    }
    if (name.back() == '.') {
        name.remove_suffix(1);
    }
    if (name.size() > kMaxNameLength) {
        return "the name is longer than 253 characters";
    }
    normalized.clear();
    std::transform(name.begin(), name.end(), std::back_inserter(normalized),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    std::string_view rest = normalized;
    std::string_view label;
    while (true) {
        const size_t dot = rest.find('.');
        label = rest.substr(0, dot);
        if (label.empty()) {
            return "it has an empty label";
        }
        if (label.size() > kMaxLabelLength) {
            return "a label is longer than 63 characters";
        }
        for (char c : label) {
            if (c == ' ' || c == '\t' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                return "it contains whitespace or a control character";
            }
            if (!isLabelChar(c)) {
                return std::string("'") + c + "' cannot appear in a host name";
            }
        }
        if (label.front() == '-' || label.back() == '-') {
            return "a label starts or ends with '-'";
        }
        if (dot == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(dot + 1);
    }
    if (looksNumeric(label)) {
        return "it ends in a number, so clients read it as an IP address, and it is not a valid one";
    }
    return {};
}

std::optional<uint16_t> parsePort(std::string_view text)
{
    if (text.empty() || text.size() > 5 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    unsigned value = 0;
    for (char c : text) {
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value == 0 || value > 65535) {
        return std::nullopt;
    }
    return static_cast<uint16_t>(value);
}

}  // namespace

Result<std::string> HostPattern::normalizeName(std::string_view name)
{
    if (IpAddress::parse(name).ok()) {
        return Error{"'" + std::string(name) + "' is an IP address, not a host name", 0, {}};
    }
    std::string normalized;
    if (const std::string why = nameProblem(name, normalized); !why.empty()) {
        return Error{"'" + std::string(name) + "' is not a valid host name: " + why, 0,
                     "A host name is ASCII letters, digits, '-' and '_' in dot-separated labels, such as example.com"};
    }
    return normalized;
}

Result<HostPattern> HostPattern::parse(std::string_view text)
{
    // The shapes a person might paste by mistake, each named so that the
    // error says what to take away.
    if (text.empty()) {
        return badPattern(text, "it is empty");
    }
    if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
        return badPattern(text, "it is not ASCII; write an internationalised name in its punycode form (xn--...)");
    }
    if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; })) {
        return badPattern(text, "it contains whitespace or a control character");
    }
    if (text.find("://") != std::string_view::npos) {
        return badPattern(text, "it is a URL; give only the host, as in example.com or example.com:8443");
    }
    if (text.find_first_of("/?#") != std::string_view::npos) {
        return badPattern(text, "it has a path or query; give only the host and port");
    }
    if (text.find('@') != std::string_view::npos) {
        return badPattern(text, "it has a user name; give only the host and port");
    }
    if (text.find('%') != std::string_view::npos) {
        return badPattern(text, "'%' (percent-encoding or an IPv6 zone) is not allowed");
    }

    std::string_view host = text;
    std::string_view portText;
    bool hasPort = false;
    const bool bracketed = text.front() == '[';
    if (bracketed) {
        const size_t close = text.find(']');
        if (close == std::string_view::npos) {
            return badPattern(text, "the '[' is not closed");
        }
        host = text.substr(1, close - 1);
        const std::string_view after = text.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') {
                return badPattern(text, "expected ':PORT' after ']'");
            }
            portText = after.substr(1);
            hasPort = true;
        }
    } else if (const size_t colon = text.find(':'); colon != std::string_view::npos) {
        if (text.find(':', colon + 1) != std::string_view::npos) {
            return badPattern(text, "an IPv6 address goes in brackets, as in [2001:db8::1]:443");
        }
        host = text.substr(0, colon);
        portText = text.substr(colon + 1);
        hasPort = true;
    }

    HostPattern pattern;
    if (hasPort) {
        const auto port = parsePort(portText);
        if (!port) {
            return badPattern(text, "the port must be a number from 1 to 65535");
        }
        pattern.port_ = *port;
    }

    if (bracketed) {
        const auto address = IpAddress::parse(host);
        if (!address || address->isV4()) {
            return badPattern(text, "the brackets do not hold an IPv6 address");
        }
        pattern.kind_ = Kind::Address;
        pattern.address_ = address.value();
        return pattern;
    }
    if (host == "*") {
        return badPattern(text, "'*' alone would allow every host; name a domain, as in *.example.com");
    }
    const bool wildcard = host.starts_with("*.");
    if (wildcard) {
        host.remove_prefix(2);
    }
    if (host.find('*') != std::string_view::npos) {
        return badPattern(text, "'*' may only be the whole first label, as in *.example.com");
    }
    if (!wildcard) {
        if (const auto address = IpAddress::parse(host); address.ok()) {
            // Only the spelling a person reads the same way everywhere; "0177.1"
            // or "2130706433" are addresses too, but nobody should have to
            // work out which one they allowed.
            if (!address->isV4() || address->toString() != host) {
                return badPattern(text, "write an IPv4 address as four decimal numbers, as in 203.0.113.7");
            }
            pattern.kind_ = Kind::Address;
            pattern.address_ = address.value();
            return pattern;
        }
    }
    std::string normalized;
    if (const std::string why = nameProblem(host, normalized); !why.empty()) {
        return badPattern(text, why);
    }
    if (wildcard && normalized.find('.') == std::string::npos) {
        return badPattern(text, "a wildcard needs at least two labels after '*.', as in *.example.com");
    }
    pattern.kind_ = wildcard ? Kind::Wildcard : Kind::Exact;
    pattern.name_ = std::move(normalized);
    return pattern;
}

bool HostPattern::coversPort(uint16_t port) const
{
    if (port_) {
        return port == *port_;
    }
    return std::find(kDefaultPorts.begin(), kDefaultPorts.end(), port) != kDefaultPorts.end();
}

bool HostPattern::matchesAddress(const IpAddress& address, uint16_t port) const
{
    return kind_ == Kind::Address && coversPort(port) && address_.sameAddress(address);
}

bool HostPattern::matches(std::string_view host, uint16_t port) const
{
    if (!coversPort(port)) {
        return false;
    }
    if (const auto address = IpAddress::parse(host); address.ok()) {
        return matchesAddress(address.value(), port);
    }
    if (kind_ == Kind::Address) {
        return false;
    }
    const auto name = normalizeName(host);
    if (!name) {
        return false;
    }
    if (kind_ == Kind::Exact) {
        return name.value() == name_;
    }
    // A proper subdomain: at least one label, then a dot, then the suffix.
    const std::string& candidate = name.value();
    return candidate.size() > name_.size() + 1 && candidate.ends_with(name_) &&
           candidate[candidate.size() - name_.size() - 1] == '.';
}

std::string HostPattern::toString() const
{
    std::string text;
    switch (kind_) {
    case Kind::Exact: text = name_; break;
    case Kind::Wildcard: text = "*." + name_; break;
    case Kind::Address: text = address_.isV4() ? address_.toString() : "[" + address_.toString() + "]"; break;
    }
    if (port_) {
        text += ":" + std::to_string(*port_);
    }
    return text;
}

}  // namespace moat
