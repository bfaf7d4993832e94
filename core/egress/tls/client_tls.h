// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "egress/tls/session_authority.h"

#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>

namespace moat {

// What the TLS server side of one intercepted connection checks while the
// sandbox's client says hello; kept beside the SSL object for the handshake.
struct ClientHandshakeGuard {
    std::string host;      // the CONNECT destination
    std::string refusal;   // set when the client's SNI named another host
};

// The TLS the proxy serves to the sandbox's clients on intercepted
// connections: a leaf of the session's CA for the CONNECT destination,
// TLS 1.2 or later, and ALPN http/1.1 only (the relay speaks HTTP/1.1; a
// client offering h2 alone gets no ALPN and falls back, one offering both
// gets http/1.1).
//
// The client's server name must name the CONNECT destination, as for a blind
// tunnel (server_name_check.h): a ClientHello for another host is refused
// with an unrecognized_name alert, never answered with a certificate.
class ClientTls {
public:
    static Result<std::shared_ptr<ClientTls>> create(std::shared_ptr<SessionAuthority> authority);

    boost::asio::ssl::context& context() { return context_; }
    SessionAuthority& authority() { return *authority_; }

    // Before the handshake: presents host's leaf and arms the SNI check.
    // guard must outlive the handshake.
    Result<void> prepare(SSL* ssl, ClientHandshakeGuard& guard);

private:
    explicit ClientTls(std::shared_ptr<SessionAuthority> authority);

    std::shared_ptr<SessionAuthority> authority_;
    boost::asio::ssl::context context_;
};

}  // namespace moat
