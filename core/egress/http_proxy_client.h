// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/asio_coroutines.h"
#include "egress/proxy_context.h"

#include <boost/asio/ip/tcp.hpp>

#include <memory>

namespace moat {

// Serves one connection to the sandbox's HTTP proxy listener, until the
// agent closes it, a limit ends it, or it becomes a CONNECT tunnel:
//   CONNECT host:port           a tunnel, if the rules allow host:port
//   GET http://host[:port]/...  forwarded, with keep-alive on both sides
//   GET /v1/...                 the control endpoint ($MOAT_API)
// Every refusal is an HTTP answer with a one-line reason, never a hang.
boost::asio::awaitable<void> serveHttpProxyClient(std::shared_ptr<ProxyContext> context,
                                                  boost::asio::ip::tcp::socket socket);

}  // namespace moat
