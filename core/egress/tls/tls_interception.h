// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace moat {

class ClientTls;
class HttpExchangeFilter;
class SessionAuthority;
class UpstreamTls;

// How an egress proxy intercepts TLS (ProxyContext::interception). Off
// unless `intercept` is set: every allowed CONNECT is then a blind tunnel.
//
// A CONNECT host:port the rules allowed is intercepted when intercept(host,
// port) returns a filter; null keeps it a blind tunnel. The same filter
// decides plain http:// requests to that host:port, and a SOCKS5 CONNECT to
// it is refused (SOCKS5 never intercepts), so that no listener skips it.
// The hook runs on the proxy's thread, once per CONNECT, SOCKS5 CONNECT and
// plain request, and should be quick (a lookup in the session's HTTP rules
// and secret bindings).
struct TlsInterception {
    using Hook = std::function<std::shared_ptr<HttpExchangeFilter>(const std::string& host, std::uint16_t port)>;

    Hook intercept;
    // The session's CA (its certificate is what the sandbox trusts) and the
    // TLS to upstreams. Both are required once intercept is set: a filter
    // without them refuses the CONNECT (502), never tunnels it blind.
    std::shared_ptr<SessionAuthority> authority;
    std::shared_ptr<UpstreamTls> upstreamTls;
    // The most of a request body a filter may read (RequestView::body()):
    // enough for a git push's ref updates.
    std::size_t maxInspectedBody = 1024 * 1024;

    // Made by the proxy from authority on the first intercepted CONNECT.
    std::shared_ptr<ClientTls> clientTls;
};

}  // namespace moat
