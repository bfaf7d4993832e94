// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/asio_coroutines.h"
#include "egress/control_api.h"
#include "egress/proxy_context.h"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>

#include <chrono>
#include <string_view>

namespace moat {

// The control endpoint's side of one HTTP exchange on the proxy listener
// (the agent's connection; http_proxy_client.cpp reads the head).

// Writes `answer` as JSON; true when the connection may serve another request.
boost::asio::awaitable<bool> writeControlResponse(boost::beast::tcp_stream& client, const ControlResponse& answer,
                                                  bool headOnly, bool keepAlive);

// POST /v1/requests: reads the body (at most kMaxControlBody, 413 past it,
// within bodyTimeout), hands it to context.escalate, and holds the agent's
// connection until the answer comes. The wait costs one coroutine and one
// connection slot; the desk behind escalate bounds how many wait at once,
// and answers each by its deadline. True when the connection may serve
// another request.
boost::asio::awaitable<bool> answerEscalationRequest(
    boost::beast::tcp_stream& client, boost::beast::flat_buffer& buffer,
    boost::beast::http::request_parser<boost::beast::http::buffer_body>& parser, std::string_view query,
    const ProxyContext& context, std::chrono::seconds bodyTimeout);

}  // namespace moat
