// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <boost/asio/ssl/context.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace moat {

// The TLS the proxy speaks to an intercepted upstream, in the agent's place.
// Because the sandbox's client now trusts the proxy rather than the server,
// the proxy must check the server exactly as a careful client would:
// against the host's trust store (plus, only when given explicitly, one
// extra CA file, which is how tests bring their own server), for the name
// the agent asked to CONNECT to, with TLS 1.2 or later. A server that fails
// any check is never spoken to; the agent is told why in one line.
class UpstreamTls {
public:
    // extraCaFile: a PEM file of CAs trusted in addition to the host's; empty
    // for none. An unreadable or empty file is an error, not a smaller trust.
    static Result<std::shared_ptr<UpstreamTls>> create(const std::string& extraCaFile = {});

    boost::asio::ssl::context& context() { return context_; }

    // Before the handshake with host (the CONNECT target: a normalised name,
    // or an IP literal): SNI for a name, the name or address the certificate
    // must carry, ALPN http/1.1 only.
    Result<void> prepare(SSL* ssl, const std::string& host) const;

    // The one-line reason a handshake with host:port failed, after `ssl`'s
    // handshake ended with ec: a certificate that did not verify says which
    // check failed ("upstream certificate for example.com:443 did not verify:
    // self-signed certificate").
    static std::string failureReason(SSL* ssl, const std::string& host, std::uint16_t port,
                                     const boost::system::error_code& ec);

private:
    UpstreamTls();

    boost::asio::ssl::context context_;
};

// "host:port", with an IPv6 literal in brackets.
std::string hostPortText(const std::string& host, std::uint16_t port);

}  // namespace moat
