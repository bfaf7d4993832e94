// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/error.h"

namespace moat {

// Where an HTTP/1.1 request sent to moat's egress proxy wants to go, read
// from its request line and Host header(s) only. The sender is the agent
// inside the sandbox, which is hostile: everything it sends is validated
// here, before any rule looks at it, and anything ambiguous is refused with
// a reason the proxy can put in its 400 answer and in the timeline.
//
// The destination is the request target and nothing else: a Host header (or,
// later, the TLS SNI) never picks a different host or port. When the Host
// header disagrees with the target, parse() reports the mismatch as an error
// so that the proxy refuses the request instead of choosing one of the two
// (RFC 9112 3.2.2 lets a proxy silently prefer the target; refusing is
// stricter and shows the attempt in the timeline).
//
// Accepted forms:
//   CONNECT  authority-form   example.com:443        (port required)
//   any other method, absolute-form  http://example.com[:port]/path?query
// Refused: https:// and other schemes in absolute-form (TLS goes through
// CONNECT), origin-form "/path" (a forward proxy needs the destination in the
// target; see parseOriginForm), asterisk-form "*", userinfo, fragments,
// percent-encoded or empty hosts, ports outside 1..65535, and any byte that
// is not visible ASCII.
class RequestTarget {
public:
    enum class Kind {
        Authority,  // CONNECT host:port
        Absolute,   // http://host[:port]/path?query
        Origin,     // /path?query, only from parseOriginForm
    };

    // How the host is spelt. Ipv4 means "the last label is a number", which
    // is how WHATWG URL parsers (and inet_aton) decide that "127.1",
    // "0x7f.0.0.1" or "2130706433" name an address: the text is kept as it was
    // written so that the address classifier sees exactly what a resolver
    // would interpret, and no rule matches it as a name.
    enum class HostKind { Name, Ipv4, Ipv6 };

    struct Host {
        std::string text;  // lower case; IPv6 without brackets, canonical
        HostKind kind = HostKind::Name;

        friend bool operator==(const Host&, const Host&) = default;
    };

    static constexpr std::size_t kMaxTargetLength = 8192;
    static constexpr std::size_t kMaxHostLength = 253;
    static constexpr std::uint16_t kHttpPort = 80;

    // method: the request line's method token. target: its request-target.
    // hostHeaders: the value of every Host header field of the request, in
    // order (none for a request without one; more than one is refused).
    // A caller that wants to answer 414 rather than 400 compares
    // target.size() with kMaxTargetLength first.
    static Result<RequestTarget> parse(std::string_view method, std::string_view target,
                                       std::span<const std::string_view> hostHeaders);

    // An origin-form target ("/v1/models?x=1") validated like the path of an
    // absolute-form one: host() is empty and port() is 0. Only for requests
    // addressed to the proxy itself; it never names a destination.
    static Result<RequestTarget> parseOriginForm(std::string_view method, std::string_view target);

    // One host as it appears in a target or a Host header: a reg-name, an IPv4
    // address in any spelling, or a bracketed IPv6 address. Lower-cased; one
    // trailing dot (the DNS root) removed, so that "example.com." cannot dodge
    // a rule written for "example.com". Shared with the SOCKS5 listener so that
    // switching protocols cannot dodge a rule either.
    static Result<Host> parseHost(std::string_view text);

    Kind kind() const { return kind_; }
    const std::string& method() const { return method_; }
    const std::string& host() const { return host_.text; }
    HostKind hostKind() const { return host_.kind; }
    std::uint16_t port() const { return port_; }
    // Absolute- and origin-form: path and query as sent, "/" when the target
    // had none. Empty for CONNECT.
    const std::string& path() const { return path_; }
    // "host:port", IPv6 in brackets: the form a CONNECT line or a Host header uses.
    std::string authority() const;

private:
    RequestTarget() = default;

    Kind kind_ = Kind::Authority;
    std::string method_;
    Host host_;
    std::uint16_t port_ = 0;
    std::string path_;
};

}  // namespace moat
