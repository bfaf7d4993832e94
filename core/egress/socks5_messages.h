// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "egress/request_target.h"

namespace moat {

// The two messages a SOCKS5 client sends before its data (RFC 1928), read
// from whatever bytes the proxy has received so far, and the bytes of every
// answer moat gives. Pure byte handling: the caller owns the socket, appends
// what it reads to a buffer and calls parse again until the outcome is no
// longer NeedMoreBytes; it then drops `consumed` bytes from the front.
//
// The client is the hostile agent. Each parser looks at no byte past the
// span, decides as soon as a byte decides (a wrong version is refused at
// byte 0; nothing is buffered for a command moat will not run), and never
// needs more than 262 bytes for one message, so a proxy can cap its buffer.
//
// Only "no authentication" and CONNECT are offered: the listener sits inside
// the sandbox's own network namespace, and BIND and UDP ASSOCIATE would open
// paths the egress rules do not describe.
class Socks5Messages {
public:
    static constexpr std::uint8_t kVersion = 5;
    static constexpr std::uint8_t kNoAuthentication = 0x00;
    static constexpr std::uint8_t kNoAcceptableMethod = 0xff;
    static constexpr std::size_t kMaxMessageLength = 262;  // 4 + 1 + 255 + 2

    enum class Outcome {
        NeedMoreBytes,  // a prefix of a message: read more and call again
        Complete,       // a whole message; `consumed` bytes belong to it
        Refused,        // well-formed but not served: send reply(refusal), then close
        Malformed,      // not SOCKS5: close without a reply
    };

    // RFC 1928 section 6 reply codes moat sends.
    enum class Reply : std::uint8_t {
        Succeeded = 0x00,
        GeneralFailure = 0x01,
        NotAllowedByRuleset = 0x02,
        HostUnreachable = 0x04,
        ConnectionRefused = 0x05,
        CommandNotSupported = 0x07,
        AddressTypeNotSupported = 0x08,
    };

    enum class AddressType : std::uint8_t { Ipv4 = 0x01, DomainName = 0x03, Ipv6 = 0x04 };

    struct Greeting {
        Outcome outcome = Outcome::NeedMoreBytes;
        std::size_t consumed = 0;
        // kNoAuthentication when the client offered it, else kNoAcceptableMethod
        // (send greetingReply and close). Meaningful when Complete.
        std::uint8_t method = kNoAcceptableMethod;
        std::string problem;  // why, when Malformed
    };

    struct ConnectRequest {
        Outcome outcome = Outcome::NeedMoreBytes;
        std::size_t consumed = 0;
        Reply refusal = Reply::GeneralFailure;  // what to answer, when Refused
        AddressType addressType = AddressType::Ipv4;
        // When Complete: the destination, normalised as an HTTP target's host
        // (RequestTarget::parseHost), so that the same rules apply to both.
        RequestTarget::Host host;
        std::uint16_t port = 0;
        std::string problem;  // why, when Refused or Malformed
    };

    // VER NMETHODS METHODS...
    [[nodiscard]] static Greeting parseGreeting(std::span<const std::uint8_t> bytes);
    // VER CMD RSV ATYP DST.ADDR DST.PORT, after the greeting was answered.
    [[nodiscard]] static ConnectRequest parseConnectRequest(std::span<const std::uint8_t> bytes);

    // VER METHOD: the answer to a complete greeting.
    static std::array<std::uint8_t, 2> greetingReply(std::uint8_t method);
    // VER REP RSV ATYP BND.ADDR BND.PORT. The bound address is always 0.0.0.0:0:
    // the real one is the supervisor's socket, which the agent has no use
    // for, and clients ignore it.
    static std::array<std::uint8_t, 10> reply(Reply code);
};

}  // namespace moat
