// SPDX-License-Identifier: Apache-2.0
#include "egress/control_exchange.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http.hpp>

#include <memory>
#include <optional>

namespace moat {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr std::chrono::seconds kAnswerTimeout{5};

ControlResponse problem(unsigned status, std::string text)
{
    return {status, {{"error", std::move(text)}}};
}

// The answer to one held request, and the timer its coroutine sleeps on
// until the answer arrives (the timer never fires on its own).
struct HeldAnswer {
    explicit HeldAnswer(const asio::any_io_executor& executor) : wake(executor, asio::steady_timer::time_point::max())
    {
    }
    asio::steady_timer wake;
    std::optional<ControlResponse> response;
};

}  // namespace

asio::awaitable<bool> writeControlResponse(beast::tcp_stream& client, const ControlResponse& answer, bool headOnly,
                                           bool keepAlive)
{
    http::response<http::string_body> response{static_cast<http::status>(answer.status), 11};
    response.set(http::field::content_type, "application/json");
    response.set(http::field::cache_control, "no-store");
    response.body() = answer.body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    response.prepare_payload();
    if (headOnly) {
        response.body().clear();
    }
    response.keep_alive(keepAlive);
    boost::system::error_code ec;
    client.expires_after(kAnswerTimeout);
    co_await http::async_write(client, response, untilDone(ec));
    client.expires_never();
    co_return !ec && keepAlive;
}

asio::awaitable<bool> answerEscalationRequest(beast::tcp_stream& client, beast::flat_buffer& buffer,
                                              http::request_parser<http::buffer_body>& parser, std::string_view query,
                                              const ProxyContext& context, std::chrono::seconds bodyTimeout)
{
    const auto declared = parser.content_length();
    if (declared && *declared > kMaxControlBody) {
        // Refused before a byte of it is read; the connection cannot be
        // reused with an unread body on it.
        co_return co_await writeControlResponse(
            client, problem(413, "the request body is larger than " + std::to_string(kMaxControlBody) + " bytes"),
            false, false);
    }
    if (!context.escalate) {
        co_return co_await writeControlResponse(client, problem(503, "this session takes no escalation requests"),
                                                false, false);
    }
    boost::system::error_code ec;
    if (!parser.is_done() && beast::iequals(parser.get()[http::field::expect], "100-continue")) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        client.expires_after(kAnswerTimeout);
        co_await asio::async_write(client, asio::buffer(kContinue), untilDone(ec));
        if (ec) {
            co_return false;
        }
    }
    http::request_parser<http::string_body> reader{std::move(parser)};
    reader.body_limit(kMaxControlBody);
    client.expires_after(bodyTimeout);
    co_await http::async_read(client, buffer, reader, untilDone(ec));
    client.expires_never();
    if (ec == http::error::body_limit) {
        co_return co_await writeControlResponse(
            client, problem(413, "the request body is larger than " + std::to_string(kMaxControlBody) + " bytes"),
            false, false);
    }
    if (ec == beast::error::timeout) {
        co_return false;  // the stream closed itself: nothing can be answered
    }
    if (ec) {
        co_return co_await writeControlResponse(client, problem(400, "malformed request body: " + ec.message()), false,
                                                false);
    }
    const bool keepAlive = reader.get().keep_alive();

    auto held = std::make_shared<HeldAnswer>(client.get_executor());
    context.escalate(query, std::move(reader.get().body()), [held](ControlResponse response) {
        if (!held->response) {
            held->response = std::move(response);
            held->wake.cancel();
        }
    });
    // The answer may already be there (a malformed body); else sleep until
    // the desk answers. A closed agent connection is noticed at the write.
    while (!held->response) {
        co_await held->wake.async_wait(untilDone(ec));
    }
    co_return co_await writeControlResponse(client, *held->response, false, keepAlive);
}

}  // namespace moat
