// SPDX-License-Identifier: Apache-2.0
#include "egress/server_name_check.h"

#include "egress/egress_policy.h"
#include "egress/tls_client_hello.h"

namespace moat {

FirstBytesCheck serverNameCheck(std::string host, std::uint16_t port)
{
    return [host = std::move(host), port](std::span<const std::uint8_t> bytes) {
        const TlsClientHello::Parsed hello = TlsClientHello::parse(bytes);
        switch (hello.outcome) {
        case TlsClientHello::Outcome::NeedMoreBytes:
            return FirstBytesVerdict{FirstBytesVerdict::Kind::NeedMoreBytes, {}};
        case TlsClientHello::Outcome::NotTls:
            return FirstBytesVerdict{FirstBytesVerdict::Kind::Pass, {}};
        case TlsClientHello::Outcome::Malformed:
            return FirstBytesVerdict{FirstBytesVerdict::Kind::Refuse,
                                     hello.problem + "; the tunnel to " + host + ":" + std::to_string(port) +
                                         " was closed"};
        case TlsClientHello::Outcome::Complete:
            break;
        }
        if (!hello.hasServerName || EgressPolicy::serverNameNames(hello.serverName, host)) {
            return FirstBytesVerdict{FirstBytesVerdict::Kind::Pass, {}};
        }
        return FirstBytesVerdict{FirstBytesVerdict::Kind::Refuse,
                                 "the TLS server name " + hello.serverName + " is not the tunnel's destination " +
                                     host + ":" + std::to_string(port) +
                                     "; a tunnel reaches only the host it was opened to"};
    };
}

}  // namespace moat
