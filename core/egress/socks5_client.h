// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/asio_coroutines.h"
#include "egress/proxy_context.h"

#include <boost/asio/ip/tcp.hpp>

#include <memory>

namespace moat {

// Serves one connection to the sandbox's SOCKS5 listener (ALL_PROXY): the
// greeting, one CONNECT request judged by the same rules as HTTP CONNECT,
// then a tunnel with the same server-name check. Anything else gets the
// RFC 1928 refusal code and the connection is closed.
boost::asio::awaitable<void> serveSocks5Client(std::shared_ptr<ProxyContext> context,
                                               boost::asio::ip::tcp::socket socket);

}  // namespace moat
