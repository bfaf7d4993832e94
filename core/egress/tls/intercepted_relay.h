// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/asio_coroutines.h"
#include "egress/egress_event.h"
#include "egress/proxy_context.h"

#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace moat {

class ClientTls;
class HttpExchangeFilter;

// A TCP connection to the upstream, opened (after the rules allowed it) by
// the proxy's dialer.
struct UpstreamConnection {
    std::optional<boost::asio::ip::tcp::socket> socket;
    std::string address;  // "203.0.113.7:443"
    std::string problem;  // one line, when there is no socket
};
using UpstreamRedial = std::function<boost::asio::awaitable<UpstreamConnection>()>;

// An allowed CONNECT that the interception hook gave a filter, after the
// proxy answered "200 Connection established".
struct InterceptedTunnel {
    std::string host;  // the CONNECT destination, normalised
    std::uint16_t port = 0;
    boost::asio::ip::tcp::socket client;
    std::vector<std::uint8_t> clientBytes;  // what the client sent right after its CONNECT
    UpstreamConnection upstream;
    // Opens a new connection to the same destination, through the same
    // rules, when an idle upstream closed between two requests.
    UpstreamRedial redial;
    std::shared_ptr<HttpExchangeFilter> filter;
    std::shared_ptr<ClientTls> clientTls;
    // The CONNECT's own event: outcomes of the tunnel as a whole (an SNI
    // refused, a handshake failed) are reported as it.
    EgressEvent connectEvent;
    // Whatever must live as long as the tunnel (its connection slot).
    std::shared_ptr<void> lease;
};

// Serves an intercepted tunnel until either side closes it or a limit ends
// it: TLS with the client (a leaf of the session CA for tunnel.host; the
// client's SNI must name it), verified TLS with the upstream, then HTTP/1.1
// requests one at a time, each decided by the filter before any of it
// reaches the upstream, each an event of its own.
//
// Bounds: request and response heads as ProxyLimits::maxHeaderBytes, heads
// within headTimeout, bodies streamed (any size) and idle at most
// bodyIdleTimeout, except a body the filter reads, held whole up to
// TlsInterception::maxInspectedBody. A refusal is an HTTP answer inside TLS
// with one line saying why, and ends the connection.
boost::asio::awaitable<void> relayInterceptedTunnel(std::shared_ptr<ProxyContext> context, InterceptedTunnel tunnel);

}  // namespace moat
