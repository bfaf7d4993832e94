// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace moat {

// The server name a TLS client asks for, read from the first bytes it sends
// into a CONNECT or SOCKS5 tunnel. The proxy dials the destination the
// tunnel request named; the SNI cannot change that, but a ClientHello naming
// another host is how domain fronting asks an allowed front to relay to a
// host the rules never allowed, so the proxy refuses such a tunnel.
//
// The bytes come from the hostile agent. The parser reads no byte past the
// span, needs at most kMaxBytes (one TLS record), and fails closed: a
// ClientHello it cannot read whole from the first record is Malformed rather
// than passed on unread. Bytes that do not start a TLS handshake record are
// NotTls: the tunnel carries some other protocol, which names no server.
class TlsClientHello {
public:
    static constexpr std::size_t kRecordHeaderLength = 5;
    static constexpr std::size_t kMaxRecordLength = 16384;  // RFC 8446 5.1, plaintext
    static constexpr std::size_t kMaxBytes = kRecordHeaderLength + kMaxRecordLength;

    enum class Outcome {
        NeedMoreBytes,  // a prefix of the first record: read more and call again
        NotTls,         // not a TLS handshake record
        Complete,       // a whole ClientHello; serverName is set when it had one
        Malformed,      // starts like TLS but cannot be read; refuse the tunnel
    };

    struct Parsed {
        Outcome outcome = Outcome::NeedMoreBytes;
        bool hasServerName = false;
        std::string serverName;  // the host_name, as sent (printable ASCII)
        std::string problem;     // why, when Malformed
    };

    [[nodiscard]] static Parsed parse(std::span<const std::uint8_t> bytes);
};

}  // namespace moat
