// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "egress/ip_address.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace moat {

// One value of --allow-host, HOST[:PORT]:
//   example.com            that name, ports 80 and 443
//   example.com:8443       that name, that port only
//   *.example.com[:PORT]   any proper subdomain (a.example.com, a.b.example.com),
//                          never example.com itself
//   203.0.113.7[:PORT]     that IPv4 address, written as a decimal dotted quad
//   [2001:db8::1][:PORT]   that IPv6 address, in brackets
//
// Names are ASCII (internationalised names in their punycode form), compared
// without regard to case and without a trailing dot. parse() refuses anything
// else with an Error that says how to write it: the pattern is typed by a
// person, and a pattern that silently meant something other than what they
// read would open the network wider than they think.
//
// A pattern only says which destinations are named; EgressPolicy adds what is
// refused whatever the patterns say.
class HostPattern {
public:
    // The ports a pattern without ":PORT" covers: plain HTTP and HTTPS.
    static constexpr std::array<uint16_t, 2> kDefaultPorts{80, 443};

    static Result<HostPattern> parse(std::string_view text);

    // A host name as the proxy compares it: lower case, one trailing dot
    // removed, letters, digits, '-' and '_' in labels of 1 to 63 characters,
    // at most 253 characters. Refuses IP addresses and names whose last label
    // is a number ("1.2.3.08", "foo.0x10"): clients read those as addresses,
    // and no top-level domain is numeric.
    static Result<std::string> normalizeName(std::string_view name);

    // Whether a destination is covered. host is a name or an IP literal in
    // any spelling (brackets allowed); it is normalised here. Name patterns
    // never match an IP literal and address patterns never match a name, so
    // "169.254.169.254.nip.io" is a name like any other.
    bool matches(std::string_view host, uint16_t port) const;
    bool matchesAddress(const IpAddress& address, uint16_t port) const;
    bool coversPort(uint16_t port) const;

    bool isIpLiteral() const { return kind_ == Kind::Address; }
    bool isWildcard() const { return kind_ == Kind::Wildcard; }
    // The name, or the suffix after "*." of a wildcard; empty for an address.
    const std::string& name() const { return name_; }
    // Only meaningful when isIpLiteral().
    const IpAddress& address() const { return address_; }
    // The one port named, or nullopt for kDefaultPorts.
    std::optional<uint16_t> port() const { return port_; }

    // The canonical spelling, which parses back to an equal pattern.
    std::string toString() const;

    friend bool operator==(const HostPattern&, const HostPattern&) = default;

private:
    enum class Kind { Exact, Wildcard, Address };

    HostPattern() = default;

    Kind kind_ = Kind::Exact;
    std::string name_;
    IpAddress address_;
    std::optional<uint16_t> port_;
};

}  // namespace moat
