// SPDX-License-Identifier: Apache-2.0
#include "egress/socks5_messages.h"

#include <arpa/inet.h>

#include <algorithm>
#include <string_view>

namespace moat {

namespace {

constexpr std::uint8_t kCommandConnect = 0x01;
constexpr std::size_t kIpv4Length = 4;
constexpr std::size_t kIpv6Length = 16;
constexpr std::size_t kRequestHeaderLength = 4;  // VER CMD RSV ATYP

std::string versionProblem(std::uint8_t version)
{
    if (version == 4) {
        return "SOCKS4 is not supported; use SOCKS5 (socks5h://)";
    }
    return "not a SOCKS5 message (version byte " + std::to_string(version) + ")";
}

Socks5Messages::ConnectRequest refused(Socks5Messages::Reply reply, std::string problem)
{
    Socks5Messages::ConnectRequest request;
    request.outcome = Socks5Messages::Outcome::Refused;
    request.refusal = reply;
    request.problem = std::move(problem);
    return request;
}

Socks5Messages::ConnectRequest malformed(std::string problem)
{
    Socks5Messages::ConnectRequest request;
    request.outcome = Socks5Messages::Outcome::Malformed;
    request.problem = std::move(problem);
    return request;
}

std::string addressText(Socks5Messages::AddressType type, std::span<const std::uint8_t> address)
{
    char text[INET6_ADDRSTRLEN] = {};
    const int family = type == Socks5Messages::AddressType::Ipv4 ? AF_INET : AF_INET6;
    // Cannot fail: the buffer fits any address of either family.
    inet_ntop(family, address.data(), text, sizeof(text));
    return text;
}

}  // namespace

Socks5Messages::Greeting Socks5Messages::parseGreeting(std::span<const std::uint8_t> bytes)
{
    Greeting greeting;
    if (bytes.empty()) {
        return greeting;
    }
    if (bytes[0] != kVersion) {
        greeting.outcome = Outcome::Malformed;
        greeting.problem = versionProblem(bytes[0]);
        return greeting;
    }
    if (bytes.size() < 2) {
        return greeting;
    }
    const std::size_t length = 2 + std::size_t{bytes[1]};
    if (bytes.size() < length) {
        return greeting;
    }
    const auto methods = bytes.subspan(2, length - 2);
    greeting.outcome = Outcome::Complete;
    greeting.consumed = length;
    // No methods at all (NMETHODS 0, which RFC 1928 does not allow) gets the
    // same clear answer as no acceptable one: 0xFF, then the client closes.
    greeting.method = std::find(methods.begin(), methods.end(), kNoAuthentication) != methods.end()
                          ? kNoAuthentication
                          : kNoAcceptableMethod;
    return greeting;
}

Socks5Messages::ConnectRequest Socks5Messages::parseConnectRequest(std::span<const std::uint8_t> bytes)
{
    ConnectRequest request;
    if (bytes.empty()) {
        return request;
    }
    if (bytes[0] != kVersion) {
        return malformed(versionProblem(bytes[0]));
    }
    if (bytes.size() < 2) {
        return request;
    }
    if (bytes[1] != kCommandConnect) {
        // BIND (2) and UDP ASSOCIATE (3) would open paths the egress rules do
        // not describe; anything else is no command at all. Refused at once:
        // nothing more of the message is worth buffering.
        const std::uint8_t command = bytes[1];
        const std::string name = command == 2   ? "BIND"
                                 : command == 3 ? "UDP ASSOCIATE"
                                                : "command " + std::to_string(command);
        return refused(Reply::CommandNotSupported, name + " is not supported; only CONNECT is");
    }
    if (bytes.size() < 3) {
        return request;
    }
    if (bytes[2] != 0) {
        return malformed("the reserved byte is not zero");
    }
    if (bytes.size() < kRequestHeaderLength) {
        return request;
    }

    std::size_t addressLength = 0;
    std::size_t addressStart = kRequestHeaderLength;
    switch (bytes[3]) {
        case static_cast<std::uint8_t>(AddressType::Ipv4):
            addressLength = kIpv4Length;
            break;
        case static_cast<std::uint8_t>(AddressType::Ipv6):
            addressLength = kIpv6Length;
            break;
        case static_cast<std::uint8_t>(AddressType::DomainName):
            if (bytes.size() < kRequestHeaderLength + 1) {
                return request;
            }
            addressLength = bytes[4];
            addressStart = kRequestHeaderLength + 1;
            if (addressLength == 0) {
                return malformed("the destination name is empty");
            }
            break;
        default:
            return refused(Reply::AddressTypeNotSupported,
                           "address type " + std::to_string(bytes[3]) + " is not supported");
    }
    const std::size_t length = addressStart + addressLength + 2;
    if (bytes.size() < length) {
        return request;
    }

    request.addressType = static_cast<AddressType>(bytes[3]);
    const auto address = bytes.subspan(addressStart, addressLength);
    request.port = static_cast<std::uint16_t>((bytes[length - 2] << 8) | bytes[length - 1]);

    if (request.addressType == AddressType::DomainName) {
        const std::string_view name(reinterpret_cast<const char*>(address.data()), address.size());
        // A bracket would make parseHost read an IPv6 address; SOCKS has its
        // own address type for that, and a name field holds names.
        auto host = name.front() == '['
                        ? Result<RequestTarget::Host>(Error{"an IPv6 address in brackets is not a name", 0, {}})
                        : RequestTarget::parseHost(name);
        if (!host) {
            // A name that cannot exist cannot be reached.
            return refused(Reply::HostUnreachable, host.error().what);
        }
        request.host = std::move(host.value());
    } else {
        request.host.text = addressText(request.addressType, address);
        request.host.kind =
            request.addressType == AddressType::Ipv4 ? RequestTarget::HostKind::Ipv4 : RequestTarget::HostKind::Ipv6;
    }
    if (request.port == 0) {
        return refused(Reply::HostUnreachable, "port 0 cannot be connected to");
    }
    request.outcome = Outcome::Complete;
    request.consumed = length;
    return request;
}

std::array<std::uint8_t, 2> Socks5Messages::greetingReply(std::uint8_t method)
{
    return {kVersion, method};
}

std::array<std::uint8_t, 10> Socks5Messages::reply(Reply code)
{
    return {
        kVersion, static_cast<std::uint8_t>(code), 0x00, static_cast<std::uint8_t>(AddressType::Ipv4), 0, 0, 0, 0, 0,
        0};
}

}  // namespace moat
