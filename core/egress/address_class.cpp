// SPDX-License-Identifier: Apache-2.0
#include "egress/address_class.h"

#include <initializer_list>

namespace moat {

namespace {

struct V4Block {
    uint32_t network;
    int prefix;
    AddressClass addressClass;
};

constexpr uint32_t v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
    return (uint32_t{a} << 24) | (uint32_t{b} << 16) | (uint32_t{c} << 8) | d;
}

// IANA's IPv4 special-purpose registry (RFC 6890 and successors), as far as
// it matters for where a proxy may connect.
constexpr V4Block kV4Blocks[] = {
    {v4(0, 0, 0, 0), 8, AddressClass::Unspecified},  // "this network"; Linux dials 0.0.0.0 as loopback
    {v4(10, 0, 0, 0), 8, AddressClass::Private},
    {v4(100, 64, 0, 0), 10, AddressClass::Cgnat},
    {v4(127, 0, 0, 0), 8, AddressClass::Loopback},
    {v4(169, 254, 0, 0), 16, AddressClass::LinkLocal},
    {v4(172, 16, 0, 0), 12, AddressClass::Private},
    {v4(192, 0, 0, 0), 24, AddressClass::Reserved},  // IETF protocol assignments
    {v4(192, 0, 2, 0), 24, AddressClass::Documentation},
    {v4(192, 88, 99, 0), 24, AddressClass::Reserved},  // deprecated 6to4 relay anycast
    {v4(192, 168, 0, 0), 16, AddressClass::Private},
    {v4(198, 18, 0, 0), 15, AddressClass::Benchmarking},
    {v4(198, 51, 100, 0), 24, AddressClass::Documentation},
    {v4(203, 0, 113, 0), 24, AddressClass::Documentation},
    {v4(224, 0, 0, 0), 4, AddressClass::Multicast},
    {v4(240, 0, 0, 0), 4, AddressClass::Reserved},
    {v4(255, 255, 255, 255), 32, AddressClass::Broadcast},
    // Instance metadata services hand out the cloud credentials of the machine
    // moat runs on; reaching one from a sandbox is the classic SSRF prize.
    // 169.254.169.254: AWS, Google Cloud, Azure, OpenStack, Oracle and most others.
    {v4(169, 254, 169, 254), 32, AddressClass::CloudMetadata},
    // 169.254.170.2: AWS ECS task metadata, which serves the task role's credentials.
    {v4(169, 254, 170, 2), 32, AddressClass::CloudMetadata},
    // 100.100.100.200: Alibaba Cloud's metadata service, inside the CGNAT block.
    {v4(100, 100, 100, 200), 32, AddressClass::CloudMetadata},
    // 168.63.129.16: Azure's WireServer, a public-looking address that only the
    // platform answers and that serves VM extension settings and secrets.
    {v4(168, 63, 129, 16), 32, AddressClass::CloudMetadata},
};

// Whether bytes start with the first bits of prefix, which spells out every
// byte those bits touch.
bool hasPrefix(const std::array<uint8_t, 16>& bytes, std::initializer_list<uint8_t> prefix, int bits)
{
    const uint8_t* p = prefix.begin();
    for (int i = 0; i < bits && p != prefix.end(); i += 8, ++p) {
        const int take = bits - i < 8 ? bits - i : 8;
        const uint8_t mask = static_cast<uint8_t>(0xff << (8 - take));
        if ((bytes[static_cast<size_t>(i / 8)] & mask) != (*p & mask)) {
            return false;
        }
    }
    return true;
}

uint32_t bit(AddressClass addressClass)
{
    return static_cast<uint32_t>(addressClass);
}

}  // namespace

uint32_t classifyV4(uint32_t address)
{
    uint32_t classes = 0;
    for (const V4Block& block : kV4Blocks) {
        const uint32_t mask = block.prefix == 0 ? 0 : ~uint32_t{0} << (32 - block.prefix);
        if ((address & mask) == block.network) {
            classes |= static_cast<uint32_t>(block.addressClass);
        }
    }
    return classes;
}

// Special purpose IPv6 blocks; what an IPv6 address embeds is IpAddress's
// business.
uint32_t classifyV6(const std::array<uint8_t, 16>& b)
{
    static constexpr std::array<uint8_t, 16> kLoopback{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    // fd00:ec2::254: AWS's metadata service over IPv6 (Nitro instances).
    static constexpr std::array<uint8_t, 16> kAwsMetadata{0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54};
    // fe80::a9fe:a9fe: OpenStack's metadata service over IPv6, 169.254.169.254 in link-local form.
    static constexpr std::array<uint8_t, 16> kOpenStackMetadata{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xa9, 0xfe, 0xa9, 0xfe};
    if (b == std::array<uint8_t, 16>{}) {
        return bit(AddressClass::Unspecified);
    }
    if (b == kLoopback) {
        return bit(AddressClass::Loopback);
    }
    if (b == kAwsMetadata) {
        return bit(AddressClass::CloudMetadata) | bit(AddressClass::Private);
    }
    if (b == kOpenStackMetadata) {
        return bit(AddressClass::CloudMetadata) | bit(AddressClass::LinkLocal);
    }
    if (hasPrefix(b, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 96)) {
        return bit(AddressClass::Ipv4Mapped);
    }
    if (hasPrefix(b, {0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0}, 96)) {
        return bit(AddressClass::Reserved);  // SIIT "IPv4-translated", ::ffff:0:a.b.c.d
    }
    if (hasPrefix(b, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 96)) {
        return bit(AddressClass::Ipv4Compatible);
    }
    if (hasPrefix(b, {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0}, 96)) {
        return bit(AddressClass::Nat64);
    }
    if (hasPrefix(b, {0, 0x64, 0xff, 0x9b, 0, 1}, 48)) {
        return bit(AddressClass::Nat64) | bit(AddressClass::Reserved);  // local-use NAT64, RFC 8215
    }
    if (hasPrefix(b, {0x01, 0x00, 0, 0, 0, 0, 0, 0}, 64)) {
        return bit(AddressClass::Reserved);  // discard-only
    }
    if (hasPrefix(b, {0x20, 0x01, 0, 0}, 32)) {
        return bit(AddressClass::Teredo);
    }
    if (hasPrefix(b, {0x20, 0x01, 0x0d, 0xb8}, 32) || hasPrefix(b, {0x3f, 0xff, 0x00}, 20)) {
        return bit(AddressClass::Documentation);
    }
    if (hasPrefix(b, {0x20, 0x01, 0, 0x02, 0, 0}, 48)) {
        return bit(AddressClass::Benchmarking);
    }
    if (hasPrefix(b, {0x20, 0x01, 0}, 23) || hasPrefix(b, {0x5f, 0}, 16)) {
        return bit(AddressClass::Reserved);  // IETF protocol assignments; SRv6 SIDs
    }
    if (hasPrefix(b, {0x20, 0x02}, 16)) {
        return bit(AddressClass::SixToFour);
    }
    if (hasPrefix(b, {0xfc}, 7) || hasPrefix(b, {0xfe, 0xc0}, 10)) {
        return bit(AddressClass::Private);  // unique local; deprecated site-local
    }
    if (hasPrefix(b, {0xfe, 0x80}, 10)) {
        return bit(AddressClass::LinkLocal);
    }
    if (hasPrefix(b, {0xff}, 8)) {
        return bit(AddressClass::Multicast);
    }
    if (!hasPrefix(b, {0x20}, 3)) {
        return bit(AddressClass::Reserved);  // global unicast is 2000::/3 only
    }
    return 0;
}

std::string_view addressClassName(AddressClass addressClass)
{
    switch (addressClass) {
    case AddressClass::Loopback: return "loopback";
    case AddressClass::Unspecified: return "unspecified";
    case AddressClass::Private: return "private";
    case AddressClass::LinkLocal: return "link-local";
    case AddressClass::Cgnat: return "carrier-grade NAT";
    case AddressClass::Multicast: return "multicast";
    case AddressClass::Broadcast: return "broadcast";
    case AddressClass::CloudMetadata: return "cloud metadata";
    case AddressClass::Reserved: return "reserved";
    case AddressClass::Documentation: return "documentation";
    case AddressClass::Benchmarking: return "benchmarking";
    case AddressClass::Ipv4Mapped: return "IPv4-mapped";
    case AddressClass::Ipv4Compatible: return "IPv4-compatible";
    case AddressClass::Nat64: return "NAT64";
    case AddressClass::SixToFour: return "6to4";
    case AddressClass::Teredo: return "Teredo";
    }
    return "unknown";
}

}  // namespace moat
