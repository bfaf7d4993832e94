// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "egress/address_class.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace moat {

// One IP address, from any spelling a resolver or an HTTP client may accept,
// kept in a canonical 16-byte form (IPv4 as ::ffff:a.b.c.d) plus whether it
// was written as IPv4 and the IPv6 zone id, if any.
//
// The proxy uses it twice: to notice that a "host name" the agent asked for is
// really an address in disguise (0x7f.1, 2130706433, [::ffff:7f00:1]), and to
// classify what its own resolver returned before dialling it. Parsing is
// deliberately at least as liberal as glibc's inet_aton and the WHATWG URL
// parser: a spelling some client reads as an address must be seen as one here,
// or it would slip through as a name.
class IpAddress {
public:
    using Bytes = std::array<uint8_t, 16>;

    // The IPv6 unspecified address, ::.
    IpAddress() = default;

    // Dotted quad and every inet_aton form (1 to 4 parts, each decimal, 0x hex
    // or 0-prefixed octal, the last part filling the remaining bytes), with
    // one trailing dot allowed as the URL standard does. IPv6 in all its
    // forms, optionally in brackets, optionally with a %zone. No whitespace.
    static Result<IpAddress> parse(std::string_view text);
    static IpAddress fromV4(uint32_t address);
    static IpAddress fromV6(const Bytes& bytes, std::string zone = {});

    const Bytes& bytes() const { return bytes_; }
    bool isV4() const { return v4_; }
    // The IPv4 address in host order; meaningful only when isV4().
    uint32_t v4() const;
    const std::string& zone() const { return zone_; }

    // The IPv4 addresses an IPv6 address carries inside it and that a
    // translator or tunnel would deliver to: mapped, compatible, NAT64, 6to4,
    // Teredo (server and client). Empty for IPv4 and plain IPv6.
    std::vector<IpAddress> embeddedV4() const;

    // The set of AddressClass bits, including those of every embedded address.
    uint32_t classes() const;
    bool is(AddressClass addressClass) const { return (classes() & static_cast<uint32_t>(addressClass)) != 0; }
    // The only class the proxy reaches by default: no class bit at all, except
    // a NAT64 address whose embedded IPv4 address is itself public (on an
    // IPv6-only host with DNS64 every IPv4-only site resolves to one).
    bool isPublicUnicast() const;
    // The most telling class for a person, e.g. "cloud metadata" rather than
    // "link-local" for 169.254.169.254; "public" when isPublicUnicast().
    std::string describe() const;

    // Canonical text: dotted quad, or RFC 5952 IPv6 (with %zone when present).
    std::string toString() const;
    // Same machine, whichever family the address was written in:
    // ::ffff:203.0.113.7 and 203.0.113.7 reach the same host.
    bool sameAddress(const IpAddress& other) const { return bytes_ == other.bytes_ && zone_ == other.zone_; }

    friend bool operator==(const IpAddress&, const IpAddress&) = default;

private:
    Bytes bytes_{};
    bool v4_ = false;
    std::string zone_;
};

}  // namespace moat
