// SPDX-License-Identifier: Apache-2.0
#include "egress/request_target.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <optional>

namespace moat {

namespace {

constexpr std::size_t kMaxMethodLength = 64;
constexpr std::size_t kMaxLabelLength = 63;
constexpr std::size_t kQuotedLength = 120;

bool isVisibleAscii(char c)
{
    return c > 0x20 && c < 0x7f;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHexDigit(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool isAlpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

char toLower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// RFC 9110 5.6.2 tchar.
bool isTokenChar(char c)
{
    return isAlpha(c) || isDigit(c) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// The agent's text goes into error messages, which end up on a terminal and
// in the timeline: escape what is not visible ASCII (no escape sequences
// reach the user's terminal) and cut it short (an 8 KiB target is no message).
std::string quoted(std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "'";
    for (const char c : text) {
        if (out.size() >= kQuotedLength) {
            out += "...";
            break;
        }
        const auto byte = static_cast<unsigned char>(c);
        if (isVisibleAscii(c) && c != '\\' && c != '\'') {
            out += c;
        } else {
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 0xf];
        }
    }
    return out + "'";
}

const char* const kTargetHint =
    "The egress proxy accepts 'CONNECT host:port' and absolute-form 'http://host[:port]/path' requests; "
    "set HTTPS_PROXY/HTTP_PROXY to the proxy and let the client build them";

Error badTarget(std::string_view target, std::string_view why, std::string hint = kTargetHint)
{
    return Error{"refused request target " + quoted(target) + ": " + std::string(why), 0, std::move(hint)};
}

Error badHost(std::string_view host, std::string_view why)
{
    return Error{"invalid host " + quoted(host) + ": " + std::string(why), 0,
                 "Name the destination by a DNS name, an IPv4 address or a bracketed IPv6 address, "
                 "without user name or percent-encoding"};
}

// The last label decides, as in the WHATWG URL parser's "ends in a number":
// all digits (decimal or octal) or 0x and hex digits.
bool endsInNumber(std::string_view host)
{
    const std::size_t dot = host.rfind('.');
    const std::string_view last = dot == std::string_view::npos ? host : host.substr(dot + 1);
    if (!last.empty() && std::all_of(last.begin(), last.end(), isDigit)) {
        return true;
    }
    return last.size() >= 2 && last[0] == '0' && last[1] == 'x' &&
           std::all_of(last.begin() + 2, last.end(), isHexDigit);
}

Result<RequestTarget::Host> parseIpv6(std::string_view text)
{
    const std::string_view inner = text.substr(1, text.size() - 2);
    if (inner.find('%') != std::string_view::npos) {
        return badHost(text, "zone identifiers and percent-encoding are not allowed");
    }
    if (!inner.empty() && (inner[0] == 'v' || inner[0] == 'V')) {
        return badHost(text, "IPvFuture addresses are not supported");
    }
    if (inner.size() >= INET6_ADDRSTRLEN) {
        return badHost(text, "not an IPv6 address");
    }
    const std::string copy(inner);
    std::array<unsigned char, 16> address{};
    if (inet_pton(AF_INET6, copy.c_str(), address.data()) != 1) {
        return badHost(text, "not an IPv6 address");
    }
    // Canonical text, so that [0::1] and [::1] compare equal with a Host header.
    std::array<char, INET6_ADDRSTRLEN> canonical{};
    if (inet_ntop(AF_INET6, address.data(), canonical.data(), canonical.size()) == nullptr) {
        return badHost(text, "not an IPv6 address");
    }
    return RequestTarget::Host{canonical.data(), RequestTarget::HostKind::Ipv6};
}

struct HostPort {
    std::string_view host;
    std::optional<std::string_view> port;  // present when a ':' followed the host
};

// Splits "host", "host:port", "[v6]" or "[v6]:port"; the parts are checked later.
Result<HostPort> splitHostPort(std::string_view authority)
{
    if (!authority.empty() && authority[0] == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos) {
            return badHost(authority, "the IPv6 address has no closing bracket");
        }
        const std::string_view rest = authority.substr(close + 1);
        if (rest.empty()) {
            return HostPort{authority, std::nullopt};
        }
        if (rest[0] != ':') {
            return badHost(authority, "unexpected text after the IPv6 address");
        }
        return HostPort{authority.substr(0, close + 1), rest.substr(1)};
    }
    const std::size_t colon = authority.find(':');
    if (colon == std::string_view::npos) {
        return HostPort{authority, std::nullopt};
    }
    if (authority.find(':', colon + 1) != std::string_view::npos) {
        return badHost(authority, "more than one ':' (an IPv6 address must be in brackets)");
    }
    return HostPort{authority.substr(0, colon), authority.substr(colon + 1)};
}

Result<std::uint16_t> parsePort(std::string_view authority, std::string_view text)
{
    if (text.empty()) {
        return badHost(authority, "the port after ':' is empty");
    }
    // Five digits hold 65535; more (even leading zeros) is not a port anyone writes.
    if (text.size() > 5 || !std::all_of(text.begin(), text.end(), isDigit)) {
        return badHost(authority, "the port is not a number from 1 to 65535");
    }
    unsigned value = 0;
    for (const char c : text) {
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value < 1 || value > 65535) {
        return badHost(authority, "the port is not a number from 1 to 65535");
    }
    return static_cast<std::uint16_t>(value);
}

struct Destination {
    RequestTarget::Host host;
    std::optional<std::uint16_t> port;
};

Result<Destination> parseAuthority(std::string_view authority)
{
    if (authority.find('@') != std::string_view::npos) {
        return badHost(authority, "user information ('user@host') is not allowed");
    }
    auto split = splitHostPort(authority);
    if (!split) {
        return split.error();
    }
    auto host = RequestTarget::parseHost(split->host);
    if (!host) {
        return host.error();
    }
    Destination destination{std::move(host.value()), std::nullopt};
    if (split->port) {
        auto port = parsePort(authority, *split->port);
        if (!port) {
            return port.error();
        }
        destination.port = port.value();
    }
    return destination;
}

std::string_view trimWhitespace(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

Status checkMethodAndTarget(std::string_view method, std::string_view target)
{
    if (method.empty() || method.size() > kMaxMethodLength || !std::all_of(method.begin(), method.end(), isTokenChar)) {
        return Error{"refused request method " + quoted(method) + ": not an HTTP method token", 0, kTargetHint};
    }
    if (target.empty()) {
        return badTarget(target, "it is empty");
    }
    if (target.size() > RequestTarget::kMaxTargetLength) {
        return badTarget(target, "it is longer than 8 KiB");
    }
    if (!std::all_of(target.begin(), target.end(), isVisibleAscii)) {
        return badTarget(target, "it contains whitespace, a control character or a non-ASCII byte");
    }
    if (target.find('#') != std::string_view::npos) {
        return badTarget(target, "it contains a fragment ('#'), which a client never sends");
    }
    return {};
}

}  // namespace

Result<RequestTarget::Host> RequestTarget::parseHost(std::string_view text)
{
    if (text.empty()) {
        return badHost(text, "it is empty");
    }
    if (text.size() > kMaxHostLength + 2) {
        return badHost(text, "it is longer than 253 characters");
    }
    if (text.front() == '[') {
        if (text.size() < 2 || text.back() != ']') {
            return badHost(text, "the IPv6 address has no closing bracket");
        }
        return parseIpv6(text);
    }
    for (const char c : text) {
        if (c == '%') {
            return badHost(text, "percent-encoding is not allowed in a host");
        }
        if (c == '@') {
            return badHost(text, "user information ('user@host') is not allowed");
        }
        if (!isAlpha(c) && !isDigit(c) && c != '-' && c != '.' && c != '_') {
            return badHost(text, "only letters, digits, '-', '_' and '.' may name a host");
        }
    }
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), toLower);
    if (lower.back() == '.') {
        lower.pop_back();
    }
    if (lower.empty()) {
        return badHost(text, "it names only the DNS root");
    }
    if (lower.size() > kMaxHostLength) {
        return badHost(text, "it is longer than 253 characters");
    }
    std::size_t start = 0;
    while (start <= lower.size()) {
        const std::size_t dot = std::min(lower.find('.', start), lower.size());
        const std::size_t length = dot - start;
        if (length == 0) {
            return badHost(text, "it has an empty label ('..' or a leading '.')");
        }
        if (length > kMaxLabelLength) {
            return badHost(text, "a label is longer than 63 characters");
        }
        start = dot + 1;
    }
    const HostKind kind = endsInNumber(lower) ? HostKind::Ipv4 : HostKind::Name;
    return Host{std::move(lower), kind};
}

Result<RequestTarget> RequestTarget::parse(std::string_view method, std::string_view target,
                                           std::span<const std::string_view> hostHeaders)
{
    if (auto checked = checkMethodAndTarget(method, target); !checked) {
        return checked.error();
    }
    if (hostHeaders.size() > 1) {
        return badTarget(target, "the request has more than one Host header",
                         "Send exactly one Host header, naming the same host and port as the target");
    }

    RequestTarget result;
    result.method_ = method;
    std::string_view authority;
    if (method == "CONNECT") {
        if (target.find_first_of("/?") != std::string_view::npos) {
            return badTarget(target, "CONNECT takes 'host:port', not a URL");
        }
        result.kind_ = Kind::Authority;
        authority = target;
    } else if (target.front() == '/') {
        return badTarget(target,
                         "an origin-form target ('/path') names no destination; a proxy needs 'http://host/path'");
    } else if (target == "*") {
        return badTarget(target, "the asterisk form ('OPTIONS *') names no destination");
    } else {
        const std::size_t schemeEnd = target.find("://");
        if (schemeEnd == std::string_view::npos) {
            return badTarget(target, "'host:port' (authority-form) is only for CONNECT");
        }
        std::string scheme(target.substr(0, schemeEnd));
        std::transform(scheme.begin(), scheme.end(), scheme.begin(), toLower);
        if (scheme == "https") {
            return badTarget(target, "https:// in absolute-form is not forwarded",
                             "Clients reach HTTPS sites through a CONNECT tunnel; set HTTPS_PROXY to the proxy");
        }
        if (scheme != "http") {
            return badTarget(target, "only http:// URLs are forwarded");
        }
        const std::string_view rest = target.substr(schemeEnd + 3);
        const std::size_t authorityEnd = std::min(rest.find_first_of("/?"), rest.size());
        authority = rest.substr(0, authorityEnd);
        const std::string_view path = rest.substr(authorityEnd);
        result.kind_ = Kind::Absolute;
        result.path_ = path.empty() || path.front() == '?' ? "/" + std::string(path) : std::string(path);
    }

    auto destination = parseAuthority(authority);
    if (!destination) {
        return badTarget(target, destination.error().what, destination.error().hint);
    }
    if (result.kind_ == Kind::Authority && !destination->port) {
        return badTarget(target, "CONNECT needs a port ('host:port')");
    }
    result.host_ = std::move(destination->host);
    result.port_ = destination->port.value_or(kHttpPort);

    if (hostHeaders.empty()) {
        // HTTP/1.0 clients send none; the target alone decides anyway.
        return result;
    }
    const std::string_view header = trimWhitespace(hostHeaders.front());
    auto named = parseAuthority(header);
    if (!named) {
        return badTarget(target, "its Host header is invalid: " + named.error().what,
                         "Send one Host header naming the same host and port as the target");
    }
    // A CONNECT target has no default port, so a Host header without one
    // (some clients send it so) is compared by host only.
    const bool portMatches =
        named->port ? *named->port == result.port_ : (result.kind_ == Kind::Authority || result.port_ == kHttpPort);
    if (named->host != result.host_ || !portMatches) {
        return badTarget(target, "its Host header " + quoted(header) + " names a different destination",
                         "The proxy connects only to the target's host and port; a Host header that disagrees "
                         "is refused rather than followed");
    }
    return result;
}

Result<RequestTarget> RequestTarget::parseOriginForm(std::string_view method, std::string_view target)
{
    if (auto checked = checkMethodAndTarget(method, target); !checked) {
        return checked.error();
    }
    if (target.front() != '/') {
        return badTarget(target, "an origin-form target starts with '/'");
    }
    RequestTarget result;
    result.kind_ = Kind::Origin;
    result.method_ = method;
    result.path_ = target;
    return result;
}

std::string RequestTarget::authority() const
{
    if (kind_ == Kind::Origin) {
        return {};
    }
    const std::string host = host_.kind == HostKind::Ipv6 ? "[" + host_.text + "]" : host_.text;
    return host + ":" + std::to_string(port_);
}

}  // namespace moat
