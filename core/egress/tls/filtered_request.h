// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/asio_coroutines.h"
#include "egress/proxy_limits.h"
#include "egress/tls/http_exchange_filter.h"

#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http.hpp>

#include <string>
#include <vector>

namespace moat {

// One request put to an HttpExchangeFilter, on either kind of client
// connection (a plain HTTP proxy client or an intercepted TLS tunnel): the
// head is already read into the parser, the body is read only when the
// filter asks for it, and the verdict comes back checked. The relay that
// forwards a Forward verdict sends body() when bodyWasRead(), and streams
// the rest of the parser's body otherwise.
template <class Stream>
class FilteredRequest {
public:
    using Parser = boost::beast::http::request_parser<boost::beast::http::buffer_body>;

    FilteredRequest(Stream& client, boost::beast::flat_buffer& buffer, Parser& parser, const ProxyLimits& limits,
                    std::size_t maxBody)
        : client_(client), buffer_(buffer), parser_(parser), limits_(limits), maxBody_(maxBody)
    {
    }

    // The filter's verdict on the request for host:port (target: what the
    // upstream will be sent, path and query). A filter that throws, that
    // changes Host or the body's framing, or that forwards a request whose
    // body it could not read, gets a refusal instead.
    boost::asio::awaitable<FilterVerdict> decide(HttpExchangeFilter& filter, const std::string& host,
                                                 std::uint16_t port, std::string_view target)
    {
        namespace http = boost::beast::http;
        auto& request = parser_.get();
        const std::string method(request.method_string().data(), request.method_string().size());
        const std::string path(target);
        const std::string framing = framingOf(request);
        RequestView view(method, path, host, port, request, !parser_.is_done(),
                         [this](std::function<bool(std::string_view)> stopWhen) { return body(std::move(stopWhen)); });
        FilterVerdict verdict;
        try {
            verdict = co_await filter.onRequest(view);
        } catch (...) {
            // Not the exception's message: it may hold what the filter read.
            co_return FilterVerdict::refuse("the request filter failed; the request was not forwarded", 500);
        }
        if (verdict.kind != FilterVerdict::Kind::Forward) {
            if (verdict.reason.empty()) {
                verdict.reason = "refused by the session's rules";
            }
            if (verdict.status < 400 || verdict.status > 599) {
                verdict.status = 403;
            }
            co_return verdict;
        }
        if (framingOf(request) != framing) {
            co_return FilterVerdict::refuse(
                "the request filter changed the request's Host or framing; the request was not forwarded", 500);
        }
        if (read_ && !body_) {
            co_return FilterVerdict::refuse(body_.error().what, failureStatus_);
        }
        if (read_ && parser_.is_done()) {
            // The bytes the filter saw are the bytes the upstream gets.
            request.erase(http::field::transfer_encoding);
            request.content_length(body_.value().size());
        }
        co_return verdict;
    }

    // Whether the filter read the body: the relay sends readBody() first,
    // then, when bodyWasReadWhole() is false, streams the rest from the
    // parser through the same serializer (the client's framing kept).
    bool bodyWasRead() const { return read_; }
    bool bodyWasReadWhole() const { return read_ && parser_.is_done(); }
    std::string& readBody() { return body_.value(); }
    // Whether the client was already told "100 Continue".
    bool continued() const { return continued_; }

    // Tells the client to send its body, once (for Expect: 100-continue).
    boost::asio::awaitable<void> sendContinue(std::chrono::seconds timeout)
    {
        if (continued_) {
            co_return;
        }
        continued_ = true;
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        boost::system::error_code ec;
        boost::beast::get_lowest_layer(client_).expires_after(timeout);
        co_await boost::asio::async_write(client_, boost::asio::buffer(kContinue), untilDone(ec));
    }

private:
    static std::string framingOf(const boost::beast::http::request<boost::beast::http::buffer_body>& request)
    {
        namespace http = boost::beast::http;
        std::string framing;
        for (auto field : {http::field::host, http::field::content_length, http::field::transfer_encoding}) {
            const auto [first, last] = request.equal_range(field);
            for (auto at = first; at != last; ++at) {
                framing.append(at->value().data(), at->value().size()).push_back('\n');
            }
            framing.push_back('|');
        }
        return framing;
    }

    boost::asio::awaitable<Result<std::string_view>> body(std::function<bool(std::string_view)> stopWhen)
    {
        read_ = true;
        if (body_) {
            co_await readBody(stopWhen);
        }
        if (!body_) {
            co_return body_.error();
        }
        co_return std::string_view(body_.value());
    }

    // Appends to body_ until stopWhen(body_) holds or the body ends.
    boost::asio::awaitable<void> readBody(const std::function<bool(std::string_view)>& stopWhen)
    {
        namespace http = boost::beast::http;
        if (boost::beast::iequals(parser_.get()[http::field::expect], "100-continue")) {
            co_await sendContinue(limits_.headTimeout);
        }
        std::string& bytes = body_.value();
        std::vector<char> chunk(64 * 1024);
        auto& out = parser_.get().body();
        while (!parser_.is_done() && !(stopWhen && stopWhen(bytes))) {
            out.data = chunk.data();
            out.size = chunk.size();
            boost::system::error_code ec;
            boost::beast::get_lowest_layer(client_).expires_after(limits_.bodyIdleTimeout);
            co_await http::async_read(client_, buffer_, parser_, untilDone(ec));
            if (ec == http::error::need_buffer) {
                ec = {};
            }
            bytes.append(chunk.data(), chunk.size() - out.size);
            if (bytes.size() > maxBody_) {
                body_ = Error{"the request body is larger than " + std::to_string(maxBody_) +
                                  " bytes, the most the proxy reads to decide on a request",
                              0, {}};
                failureStatus_ = 413;
                co_return;
            }
            if (ec) {
                body_ = Error{"the request body did not arrive whole: " + ec.message(), 0, {}};
                failureStatus_ = 400;
                co_return;
            }
        }
        boost::beast::get_lowest_layer(client_).expires_never();
    }

    Stream& client_;
    boost::beast::flat_buffer& buffer_;
    Parser& parser_;
    const ProxyLimits& limits_;
    std::size_t maxBody_;
    bool read_ = false;
    bool continued_ = false;
    Result<std::string> body_ = std::string();
    unsigned failureStatus_ = 400;
};

// Writes the body (or the start of it: more) the filter read, after the
// head went through `writer`.
template <class Stream>
boost::asio::awaitable<boost::system::error_code> writeReadBody(
    Stream& to, boost::beast::http::request<boost::beast::http::buffer_body>& request,
    boost::beast::http::serializer<true, boost::beast::http::buffer_body>& writer, std::string& bytes,
    std::chrono::seconds idle, bool more = false)
{
    auto& out = request.body();
    out.data = bytes.data();
    out.size = bytes.size();
    out.more = more;
    boost::system::error_code ec;
    boost::beast::get_lowest_layer(to).expires_after(idle);
    co_await boost::beast::http::async_write(to, writer, untilDone(ec));
    if (ec == boost::beast::http::error::need_buffer) {
        ec = {};
    }
    co_return ec;
}

}  // namespace moat
