// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace moat {

// What an address is for, as far as egress is concerned. An address may be in
// several classes at once (169.254.169.254 is link-local and cloud metadata;
// ::ffff:10.0.0.1 is IPv4-mapped and private), so these are bits of a set.
enum class AddressClass : uint32_t {
    Loopback = 1u << 0,       // 127/8, ::1
    Unspecified = 1u << 1,    // 0/8, ::
    Private = 1u << 2,        // 10/8, 172.16/12, 192.168/16, fc00::/7, fec0::/10
    LinkLocal = 1u << 3,      // 169.254/16, fe80::/10
    Cgnat = 1u << 4,          // 100.64/10, the carrier's side of a shared NAT
    Multicast = 1u << 5,      // 224/4, ff00::/8
    Broadcast = 1u << 6,      // 255.255.255.255
    CloudMetadata = 1u << 7,  // the instance metadata services, see address_class.cpp
    Reserved = 1u << 8,       // IANA special-purpose or unallocated, never a public host
    Documentation = 1u << 9,  // 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20
    Benchmarking = 1u << 10,  // 198.18/15, 2001:2::/48
    Ipv4Mapped = 1u << 11,    // ::ffff:0:0/96
    Ipv4Compatible = 1u << 12,  // ::/96 other than :: and ::1
    Nat64 = 1u << 13,         // 64:ff9b::/96, 64:ff9b:1::/48
    SixToFour = 1u << 14,     // 2002::/16
    Teredo = 1u << 15,        // 2001::/32
};

// A short lower-case name for one class, e.g. "link-local".
std::string_view addressClassName(AddressClass addressClass);

// The classes of an address from its own bits alone, from IANA's
// special-purpose registries. IpAddress::classes() adds those of the IPv4
// address an IPv6 address embeds; call that rather than these.
uint32_t classifyV4(uint32_t address);
uint32_t classifyV6(const std::array<uint8_t, 16>& bytes);

}  // namespace moat
