// SPDX-License-Identifier: Apache-2.0
#include "egress/ip_address.h"

#include "base/hex_digit.h"

#include <algorithm>
#include <initializer_list>
#include <optional>

namespace moat {

namespace {

constexpr std::array<uint8_t, 12> kNat64Prefix{0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};

Error badAddress(std::string_view text, std::string_view why)
{
    return Error{"'" + std::string(text) + "' is not an IP address: " + std::string(why), 0,
                 "Write IPv4 as a dotted quad (203.0.113.7) and IPv6 as RFC 4291 text ([2001:db8::1])"};
}

// One part of an inet_aton address: decimal, "0x" hex or "0" octal. Like
// glibc and the URL standard, "0x" with no digits is zero and 8 or 9 make an
// octal part invalid. Values past 32 bits are refused rather than wrapped.
std::optional<uint64_t> parseV4Part(std::string_view part)
{
    if (part.empty()) {
        return std::nullopt;
    }
    unsigned base = 10;
    if (part.size() >= 2 && part[0] == '0' && (part[1] == 'x' || part[1] == 'X')) {
        base = 16;
        part.remove_prefix(2);
    } else if (part.size() >= 2 && part[0] == '0') {
        base = 8;
        part.remove_prefix(1);
    }
    uint64_t value = 0;
    for (char c : part) {
        const int digit = hexDigitValue(c);
        if (digit < 0 || static_cast<unsigned>(digit) >= base) {
            return std::nullopt;
        }
        value = value * base + static_cast<unsigned>(digit);
        if (value > 0xffffffffULL) {
            return std::nullopt;
        }
    }
    return value;
}

std::optional<uint32_t> parseV4(std::string_view text)
{
    if (!text.empty() && text.back() == '.') {
        text.remove_suffix(1);  // "127.0.0.1." is 127.0.0.1 to every browser
    }
    std::vector<uint64_t> parts;
    size_t start = 0;
    while (true) {
        const size_t dot = text.find('.', start);
        const auto part = parseV4Part(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
        if (!part || parts.size() == 4) {
            return std::nullopt;
        }
        parts.push_back(*part);
        if (dot == std::string_view::npos) {
            break;
        }
        start = dot + 1;
    }
    // Every part but the last is one byte; the last fills what remains, so
    // "127.1" is 127.0.0.1 and "10.1.258" is 10.1.1.2.
    uint32_t address = 0;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
        if (parts[i] > 0xff) {
            return std::nullopt;
        }
        address |= static_cast<uint32_t>(parts[i]) << (24 - 8 * i);
    }
    const unsigned restBits = 32 - 8 * static_cast<unsigned>(parts.size() - 1);
    if (restBits < 32 && parts.back() >= (1ULL << restBits)) {
        return std::nullopt;
    }
    return address | static_cast<uint32_t>(parts.back());
}

// The dotted quad inside IPv6 text (::ffff:127.0.0.1) is strict: four decimal
// parts without leading zeros, as inet_pton and the URL standard require.
std::optional<uint32_t> parseStrictDottedQuad(std::string_view text)
{
    uint32_t address = 0;
    int parts = 0;
    size_t i = 0;
    while (parts < 4) {
        if (i >= text.size() || text[i] < '0' || text[i] > '9') {
            return std::nullopt;
        }
        const size_t begin = i;
        unsigned value = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - begin < 3) {
            value = value * 10 + static_cast<unsigned>(text[i] - '0');
            ++i;
        }
        if (value > 255 || (text[begin] == '0' && i - begin > 1)) {
            return std::nullopt;
        }
        address = (address << 8) | value;
        ++parts;
        if (parts < 4) {
            if (i >= text.size() || text[i] != '.') {
                return std::nullopt;
            }
            ++i;
        }
    }
    return i == text.size() ? std::optional<uint32_t>(address) : std::nullopt;
}

std::optional<IpAddress::Bytes> parseV6(std::string_view text)
{
    IpAddress::Bytes bytes{};
    std::vector<uint16_t> head;
    std::vector<uint16_t> tail;
    bool compressed = false;
    if (text.starts_with("::")) {
        compressed = true;
        text.remove_prefix(2);
    } else if (text.starts_with(":")) {
        return std::nullopt;
    }
    std::optional<uint32_t> embedded;
    while (!text.empty()) {
        const size_t colon = text.find(':');
        const std::string_view group = text.substr(0, colon);
        if (colon == std::string_view::npos && group.find('.') != std::string_view::npos) {
            embedded = parseStrictDottedQuad(group);
            if (!embedded) {
                return std::nullopt;
            }
            text = {};
            break;
        }
        if (group.empty() || group.size() > 4) {
            return std::nullopt;
        }
        uint16_t value = 0;
        for (char c : group) {
            const int digit = hexDigitValue(c);
            if (digit < 0) {
                return std::nullopt;
            }
            value = static_cast<uint16_t>(value * 16 + digit);
        }
        (compressed ? tail : head).push_back(value);
        if (colon == std::string_view::npos) {
            break;
        }
        text.remove_prefix(colon + 1);
        if (text.starts_with(":")) {
            if (compressed) {
                return std::nullopt;  // a second "::"
            }
            compressed = true;
            text.remove_prefix(1);
        } else if (text.empty()) {
            return std::nullopt;  // a trailing single ':'
        }
    }
    const size_t groups = head.size() + tail.size() + (embedded ? 2 : 0);
    if (groups > 8 || (!compressed && groups != 8) || (compressed && groups == 8)) {
        return std::nullopt;
    }
    for (size_t i = 0; i < head.size(); ++i) {
        bytes[2 * i] = static_cast<uint8_t>(head[i] >> 8);
        bytes[2 * i + 1] = static_cast<uint8_t>(head[i]);
    }
    const size_t tailStart = 16 - 2 * tail.size() - (embedded ? 4 : 0);
    for (size_t i = 0; i < tail.size(); ++i) {
        bytes[tailStart + 2 * i] = static_cast<uint8_t>(tail[i] >> 8);
        bytes[tailStart + 2 * i + 1] = static_cast<uint8_t>(tail[i]);
    }
    if (embedded) {
        for (int i = 0; i < 4; ++i) {
            bytes[12 + i] = static_cast<uint8_t>(*embedded >> (24 - 8 * i));
        }
    }
    return bytes;
}

bool validZone(std::string_view zone)
{
    if (zone.empty() || zone.size() > 64) {
        return false;
    }
    for (char c : zone) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_' || c == '.' || c == '~';
        if (!ok) {
            return false;
        }
    }
    return true;
}

}  // namespace

Result<IpAddress> IpAddress::parse(std::string_view text)
{
    if (text.empty()) {
        return badAddress(text, "it is empty");
    }
    std::string_view inner = text;
    const bool bracketed = inner.front() == '[';
    if (bracketed) {
        if (inner.size() < 2 || inner.back() != ']') {
            return badAddress(text, "the bracket is not closed");
        }
        inner = inner.substr(1, inner.size() - 2);
    }
    if (inner.find(':') == std::string_view::npos) {
        if (bracketed) {
            return badAddress(text, "only IPv6 addresses go in brackets");
        }
        const auto v4 = parseV4(inner);
        if (!v4) {
            return badAddress(text, "not a valid IPv4 address");
        }
        return fromV4(*v4);
    }
    std::string zone;
    if (const size_t percent = inner.find('%'); percent != std::string_view::npos) {
        zone = std::string(inner.substr(percent + 1));
        inner = inner.substr(0, percent);
        if (!validZone(zone)) {
            return badAddress(text, "the zone id after '%' is not an interface name");
        }
    }
    const auto bytes = parseV6(inner);
    if (!bytes) {
        return badAddress(text, "not a valid IPv6 address");
    }
    return fromV6(*bytes, std::move(zone));
}

IpAddress IpAddress::fromV4(uint32_t address)
{
    IpAddress ip;
    ip.bytes_[10] = 0xff;
    ip.bytes_[11] = 0xff;
    for (int i = 0; i < 4; ++i) {
        ip.bytes_[12 + i] = static_cast<uint8_t>(address >> (24 - 8 * i));
    }
    ip.v4_ = true;
    return ip;
}

IpAddress IpAddress::fromV6(const Bytes& bytes, std::string zone)
{
    IpAddress ip;
    ip.bytes_ = bytes;
    ip.zone_ = std::move(zone);
    return ip;
}

uint32_t IpAddress::v4() const
{
    return (uint32_t{bytes_[12]} << 24) | (uint32_t{bytes_[13]} << 16) | (uint32_t{bytes_[14]} << 8) | bytes_[15];
}

std::string IpAddress::toString() const
{
    if (v4_) {
        return std::to_string(bytes_[12]) + "." + std::to_string(bytes_[13]) + "." + std::to_string(bytes_[14]) + "." +
               std::to_string(bytes_[15]);
    }
    std::array<unsigned, 8> groups{};
    for (size_t i = 0; i < 8; ++i) {
        groups[i] = (unsigned{bytes_[2 * i]} << 8) | bytes_[2 * i + 1];
    }
    // RFC 5952: the longest run of two or more zero groups becomes "::",
    // the first one when runs tie.
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < 8;) {
        int j = i;
        while (j < 8 && groups[static_cast<size_t>(j)] == 0) {
            ++j;
        }
        if (j - i > bestLength) {
            bestStart = i;
            bestLength = j - i;
        }
        i = j == i ? i + 1 : j;
    }
    // IPv4-mapped addresses keep their dotted tail, as RFC 5952 recommends.
    const bool mapped = bestStart == 0 && bestLength == 5 && groups[5] == 0xffff;
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text;
    for (int i = 0; i < (mapped ? 6 : 8); ++i) {
        if (i == bestStart) {
            text += "::";
            i += bestLength - 1;
            continue;
        }
        if (!text.empty() && text.back() != ':') {
            text += ':';
        }
        std::string group;
        for (unsigned value = groups[static_cast<size_t>(i)]; value != 0 || group.empty(); value >>= 4) {
            group.insert(group.begin(), kHex[value & 0xf]);
        }
        text += group;
    }
    if (mapped) {
        text += ":" + fromV4(v4()).toString();
    }
    if (!zone_.empty()) {
        text += "%" + zone_;
    }
    return text;
}

std::vector<IpAddress> IpAddress::embeddedV4() const
{
    if (v4_) {
        return {};
    }
    const auto startsWith = [this](std::initializer_list<uint8_t> prefix) {
        return std::equal(prefix.begin(), prefix.end(), bytes_.begin());
    };
    const auto at = [this](size_t offset, uint32_t flip = 0) {
        const uint32_t value = (uint32_t{bytes_[offset]} << 24) | (uint32_t{bytes_[offset + 1]} << 16) |
                               (uint32_t{bytes_[offset + 2]} << 8) | bytes_[offset + 3];
        return fromV4(value ^ flip);
    };
    // ::a.b.c.d is only "compatible" past ::1; :: and ::1 embed nothing.
    const bool compatible = startsWith({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}) && v4() > 1;
    if (compatible || startsWith({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}) ||  // mapped
        startsWith({0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0}) ||                // SIIT translated
        startsWith({0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0}) ||             // NAT64, RFC 6052
        startsWith({0, 0x64, 0xff, 0x9b, 0, 1})) {                               // local-use NAT64
        return {at(12)};
    }
    if (startsWith({0x20, 0x02})) {
        return {at(2)};  // 6to4: 2002:AABB:CCDD::/48
    }
    if (startsWith({0x20, 0x01, 0, 0})) {
        return {at(4), at(12, 0xffffffff)};  // Teredo: the server, then the client inverted (RFC 4380)
    }
    return {};
}

uint32_t IpAddress::classes() const
{
    if (v4_) {
        return classifyV4(v4());
    }
    uint32_t classes = classifyV6(bytes_);
    for (const IpAddress& embedded : embeddedV4()) {
        classes |= classifyV4(embedded.v4());
    }
    return classes;
}

bool IpAddress::isPublicUnicast() const
{
    uint32_t rest = classes();
    const bool wellKnownNat64 = !v4_ && std::equal(kNat64Prefix.begin(), kNat64Prefix.end(), bytes_.begin());
    if (wellKnownNat64) {
        rest &= ~static_cast<uint32_t>(AddressClass::Nat64);
    }
    return rest == 0;
}

std::string IpAddress::describe() const
{
    // From the most telling to the least: what a person should hear first.
    static constexpr AddressClass kOrder[] = {
        AddressClass::CloudMetadata, AddressClass::Loopback,      AddressClass::Unspecified,
        AddressClass::Broadcast,     AddressClass::Multicast,     AddressClass::LinkLocal,
        AddressClass::Private,       AddressClass::Cgnat,         AddressClass::Documentation,
        AddressClass::Benchmarking,  AddressClass::Reserved,      AddressClass::Ipv4Mapped,
        AddressClass::Ipv4Compatible, AddressClass::Nat64,        AddressClass::SixToFour,
        AddressClass::Teredo,
    };
    const uint32_t own = classes();
    for (AddressClass addressClass : kOrder) {
        if (own & static_cast<uint32_t>(addressClass)) {
            return std::string(addressClassName(addressClass));
        }
    }
    return "public";
}

}  // namespace moat
