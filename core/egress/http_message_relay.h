// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/asio_coroutines.h"
#include "egress/chunk_pool.h"
#include "egress/idle_watchdog.h"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace moat {

// Beast in Boost 1.74 speaks boost::string_view.
inline std::string_view beastView(boost::beast::string_view text)
{
    return {text.data(), text.size()};
}

// Bodies are streamed, so their size needs no limit. Not boost::none: Beast
// 1.74 compares a Content-Length with an empty optional as "greater".
inline constexpr std::uint64_t kUnlimitedBody = std::numeric_limits<std::uint64_t>::max();

// How long the proxy gives a client to take one of its own short answers
// (a refusal, "100 Continue", "200 Connection established").
inline constexpr std::chrono::seconds kProxyAnswerTimeout{5};

// The final response head from an upstream into `reader`, skipping interim
// (1xx) answers: the client already had its 100 Continue from the proxy. A
// 101 is http::error::bad_status: the proxy removed the request's Upgrade,
// so a switch of protocols is not relayed.
template <class Stream>
boost::asio::awaitable<boost::system::error_code> readFinalResponseHead(
    Stream& upstream, boost::beast::flat_buffer& buffer,
    std::optional<boost::beast::http::response_parser<boost::beast::http::buffer_body>>& reader, bool isHead,
    std::size_t maxHeaderBytes, std::chrono::seconds timeout)
{
    namespace http = boost::beast::http;
    boost::system::error_code ec;
    for (;;) {
        reader.emplace();
        reader->header_limit(static_cast<std::uint32_t>(maxHeaderBytes));
        reader->body_limit(kUnlimitedBody);
        reader->skip(isHead);
        boost::beast::get_lowest_layer(upstream).expires_after(timeout);
        co_await http::async_read_header(upstream, buffer, *reader, untilDone(ec));
        if (ec) {
            co_return ec;
        }
        const unsigned status = reader->get().result_int();
        if (status == 101) {
            co_return http::error::bad_status;
        }
        if (status >= 200 || status < 100) {
            co_return ec;
        }
    }
}

// The proxy's own refusal: `status` and "moat: <reason>" as plain text, and
// the connection closes after it.
template <class Stream>
boost::asio::awaitable<void> writeRefusal(Stream& client, boost::beast::http::status status, const std::string& reason)
{
    namespace http = boost::beast::http;
    http::response<http::string_body> response{status, 11};
    response.set(http::field::content_type, "text/plain; charset=utf-8");
    response.set(http::field::cache_control, "no-store");
    response.body() = "moat: " + reason + "\n";
    response.keep_alive(false);
    response.prepare_payload();
    boost::system::error_code ec;
    boost::beast::get_lowest_layer(client).expires_after(kProxyAnswerTimeout);
    co_await http::async_write(client, response, untilDone(ec));
}

// Streams the body of a message whose head was already read into `parser`
// and written through `serializer`, from one side of the proxy to the other,
// a buffer at a time: bodies of any size (a git push, a download) pass
// without being held whole in the supervisor. The transfer must make
// progress (a read or a write done) at least every `idle`, or both sides'
// operations are cancelled and the error is beast::error::timeout. Either stream is a beast::tcp_stream or a TLS
// stream over one (an intercepted connection).
template <bool isRequest, class FromStream, class ToStream>
boost::asio::awaitable<boost::system::error_code> relayMessageBody(
    FromStream& from, boost::beast::flat_buffer& fromBuffer,
    boost::beast::http::parser<isRequest, boost::beast::http::buffer_body>& parser, ToStream& to,
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
    auto& fromSocket = boost::beast::get_lowest_layer(from);
    auto& toSocket = boost::beast::get_lowest_layer(to);
    fromSocket.expires_never();
    toSocket.expires_never();
    IdleWatchdog watchdog(fromSocket.get_executor(), idle, [&fromSocket, &toSocket] {
        fromSocket.cancel();
        toSocket.cancel();
    });
    const auto stalled = [&watchdog](boost::system::error_code error) {
        return error && watchdog.fired() ? boost::system::error_code(boost::beast::error::timeout) : error;
    };
    auto& body = parser.get().body();
    for (int reads = 0; !parser.is_done(); ++reads) {
        if (reads == 1) {
            growth.grow();
        }
        body.data = chunk.data();
        body.size = chunk.size();
        co_await http::async_read(from, fromBuffer, parser, untilDone(ec));
        if (ec == http::error::need_buffer) {
            ec = {};
        }
        if (ec) {
            co_return stalled(ec);
        }
        watchdog.progress();
        body.size = chunk.size() - body.size;
        body.data = chunk.data();
        body.more = !parser.is_done();
        co_await http::async_write(to, serializer, untilDone(ec));
        if (ec == http::error::need_buffer) {
            ec = {};
        }
        if (ec) {
            co_return stalled(ec);
        }
        watchdog.progress();
    }
    if (!serializer.is_done()) {
        // The end of a chunked body: the last chunk and its empty trailer.
        body.data = nullptr;
        body.size = 0;
        body.more = false;
        co_await http::async_write(to, serializer, untilDone(ec));
        if (ec == http::error::need_buffer) {
            ec = {};
        }
    }
    co_return stalled(ec);
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

// What relayResponse did: whether either side must now be closed.
struct RelayedResponse {
    boost::system::error_code error;
    bool upstreamKeepAlive = false;  // the upstream connection may carry the next request
    bool clientKeepAlive = false;    // the client connection may carry the next request
};

// Relays the response whose final head is in `reader` to the client, head
// (without hop-by-hop fields, keep-alive as the client asked and the
// upstream allows) then body, streamed.
template <class UpstreamStream, class ClientStream>
boost::asio::awaitable<RelayedResponse> relayResponse(
    UpstreamStream& upstream, boost::beast::flat_buffer& upstreamBuffer,
    boost::beast::http::response_parser<boost::beast::http::buffer_body>& reader, ClientStream& client,
    bool clientWantsKeepAlive, bool isHead, ChunkPool& chunks, std::chrono::seconds idle)
{
    namespace http = boost::beast::http;
    auto& response = reader.get();
    RelayedResponse relayed;
    relayed.upstreamKeepAlive = response.keep_alive() && !reader.need_eof();
    relayed.clientKeepAlive = clientWantsKeepAlive && !reader.need_eof();
    removeHopByHopFields(response);
    response.version(11);
    response.keep_alive(relayed.clientKeepAlive);
    http::serializer<false, http::buffer_body> writer{response};
    boost::beast::get_lowest_layer(client).expires_after(idle);
    co_await http::async_write_header(client, writer, untilDone(relayed.error));
    const unsigned status = response.result_int();
    if (!relayed.error && !isHead && status != 204 && status != 304) {
        relayed.error = co_await relayMessageBody(upstream, upstreamBuffer, reader, client, writer, chunks, idle);
    }
    co_return relayed;
}

}  // namespace moat
