// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/asio_coroutines.h"
#include "egress/chunk_pool.h"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace moat {

// Streams the body of a message whose head was already read into `parser`
// and written through `serializer`, from one side of the proxy to the other,
// a buffer at a time: bodies of any size (a git push, a download) pass
// without being held whole in the supervisor. Each read and each write must
// make progress within `idle`.
template <bool isRequest>
boost::asio::awaitable<boost::system::error_code> relayMessageBody(
    boost::beast::tcp_stream& from, boost::beast::flat_buffer& fromBuffer,
    boost::beast::http::parser<isRequest, boost::beast::http::buffer_body>& parser, boost::beast::tcp_stream& to,
    boost::beast::http::serializer<isRequest, boost::beast::http::buffer_body>& serializer, ChunkPool& chunks,
    std::chrono::seconds idle)
{
    namespace http = boost::beast::http;
    const ChunkPool::Lease chunk = chunks.take();
    // Beast reads at most the buffer's free capacity at a time. A body that
    // does not arrive in the first read gets room for a whole chunk while it
    // flows, given back once it has passed, so that an idle keep-alive
    // connection holds a few hundred bytes, not 64 KiB.
    struct GrowWhileFlowing {
        boost::beast::flat_buffer& buffer;
        std::size_t room;
        bool grown = false;
        void grow()
        {
            if (!grown && buffer.capacity() < room) {
                buffer.reserve(room);
                grown = true;
            }
        }
        ~GrowWhileFlowing()
        {
            if (grown) {
                buffer.shrink_to_fit();
            }
        }
    } growth{fromBuffer, chunk.size()};
    boost::system::error_code ec;
    auto& body = parser.get().body();
    for (int reads = 0; !parser.is_done(); ++reads) {
        if (reads == 1) {
            growth.grow();
        }
        body.data = chunk.data();
        body.size = chunk.size();
        from.expires_after(idle);
        co_await http::async_read(from, fromBuffer, parser, untilDone(ec));
        if (ec == http::error::need_buffer) {
            ec = {};
        }
        if (ec) {
            co_return ec;
        }
        body.size = chunk.size() - body.size;
        body.data = chunk.data();
        body.more = !parser.is_done();
        to.expires_after(idle);
        co_await http::async_write(to, serializer, untilDone(ec));
        if (ec == http::error::need_buffer) {
            ec = {};
        }
        if (ec) {
            co_return ec;
        }
    }
    if (!serializer.is_done()) {
        // The end of a chunked body: the last chunk and its empty trailer.
        body.data = nullptr;
        body.size = 0;
        body.more = false;
        to.expires_after(idle);
        co_await http::async_write(to, serializer, untilDone(ec));
        if (ec == http::error::need_buffer) {
            ec = {};
        }
    }
    co_return ec;
}

// Removes the hop-by-hop fields (RFC 9110 7.6.1) of a message the proxy
// forwards, including every field the Connection header names: they describe
// the agent's connection to the proxy (or the upstream's to the proxy), not
// the next hop.
template <bool isRequest, class Fields>
void removeHopByHopFields(boost::beast::http::header<isRequest, Fields>& header)
{
    namespace http = boost::beast::http;
    std::vector<std::string> named;
    for (const auto& token : http::token_list{header[http::field::connection]}) {
        named.emplace_back(token);
    }
    for (const auto& name : named) {
        header.erase(name);
    }
    for (auto field : {http::field::connection, http::field::keep_alive, http::field::proxy_connection,
                       http::field::proxy_authorization, http::field::proxy_authenticate, http::field::te,
                       http::field::trailer, http::field::upgrade}) {
        header.erase(field);
    }
}

}  // namespace moat
