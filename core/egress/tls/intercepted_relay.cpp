// SPDX-License-Identifier: Apache-2.0
#include "egress/tls/intercepted_relay.h"

#include "egress/http_message_relay.h"
#include "egress/tls/client_tls.h"
#include "egress/tls/filtered_request.h"
#include "egress/tls/http_exchange_filter.h"
#include "egress/tls/intercepted_request_check.h"
#include "egress/tls/upstream_tls.h"

#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <string>
#include <vector>

namespace moat {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

using TlsStream = beast::ssl_stream<beast::tcp_stream>;
using RequestParser = FilteredRequest<TlsStream>::Parser;
using ResponseParser = http::response_parser<http::buffer_body>;

// As much of a request's target as an event shows.
constexpr std::size_t kShownPathLength = 256;
constexpr auto& view = beastView;

bool isStale(const boost::system::error_code& ec)
{
    return ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
           ec == asio::error::broken_pipe || ec == asio::ssl::error::stream_truncated;
}

class InterceptedRelay {
public:
    InterceptedRelay(std::shared_ptr<ProxyContext> context, InterceptedTunnel tunnel)
        : context_(std::move(context)),
          tunnel_(std::move(tunnel)),
          client_(beast::tcp_stream(std::move(tunnel_.client)), tunnel_.clientTls->context())
    {
    }

    asio::awaitable<void> run();

private:
    const ProxyLimits& limits() const { return context_->limits; }
    asio::awaitable<bool> handshakeWithClient();
    asio::awaitable<bool> connectUpstream(std::string& problem);
    asio::awaitable<bool> readRequestHead(RequestParser& parser, bool first);
    asio::awaitable<bool> serveRequest(RequestParser& parser);
    asio::awaitable<bool> exchange(RequestParser& parser, FilteredRequest<TlsStream>& filtered, EgressEvent& event);
    asio::awaitable<void> answer(http::status status, const std::string& reason);
    EgressEvent requestEvent(const http::request<http::buffer_body>& request) const;

    std::shared_ptr<ProxyContext> context_;
    InterceptedTunnel tunnel_;
    TlsStream client_;
    beast::flat_buffer clientBuffer_;
    std::optional<TlsStream> upstream_;
    beast::flat_buffer upstreamBuffer_;
    std::string upstreamAddress_;
    int requestsOnUpstream_ = 0;
};

asio::awaitable<void> InterceptedRelay::run()
{
    if (!co_await handshakeWithClient()) {
        co_return;
    }
    std::string problem;
    const bool connected = co_await connectUpstream(problem);
    if (!connected) {
        // The agent learns why from the answer to its first request: a
        // refusal inside TLS is the one a client shows its user.
        EgressEvent event = tunnel_.connectEvent;
        event.kind = EgressEvent::Kind::Deny;
        event.reason = problem;
        context_->report(event);
        RequestParser parser;
        parser.header_limit(static_cast<std::uint32_t>(limits().maxHeaderBytes));
        if (co_await readRequestHead(parser, true)) {
            co_await answer(http::status::bad_gateway, problem);
        }
        co_return;
    }
    for (bool first = true;; first = false) {
        RequestParser parser;
        parser.header_limit(static_cast<std::uint32_t>(limits().maxHeaderBytes));
        parser.body_limit(kUnlimitedBody);
        if (!co_await readRequestHead(parser, first) || !co_await serveRequest(parser)) {
            break;
        }
    }
    boost::system::error_code ec;
    beast::get_lowest_layer(client_).expires_after(kProxyAnswerTimeout);
    co_await client_.async_shutdown(untilDone(ec));
}

asio::awaitable<bool> InterceptedRelay::handshakeWithClient()
{
    ClientHandshakeGuard guard{tunnel_.host, {}};
    EgressEvent event = tunnel_.connectEvent;
    if (auto prepared = tunnel_.clientTls->prepare(client_.native_handle(), guard); !prepared) {
        event.kind = EgressEvent::Kind::Error;
        event.reason = prepared.error().what;
        context_->report(event);
        co_return false;
    }
    boost::system::error_code ec;
    beast::get_lowest_layer(client_).expires_after(limits().clientHelloTimeout);
    co_await client_.async_handshake(asio::ssl::stream_base::server, asio::buffer(tunnel_.clientBytes),
                                     untilDone(ec));
    beast::get_lowest_layer(client_).expires_never();
    if (!ec) {
        co_return true;
    }
    if (!guard.refusal.empty()) {
        event.kind = EgressEvent::Kind::Deny;
        event.reason = guard.refusal;
    } else {
        // Most often a client that does not trust the session CA (it ended
        // the handshake with "unknown ca"): say where the trust comes from.
        event.kind = EgressEvent::Kind::Error;
        event.reason = "the TLS handshake of the client in the intercepted tunnel to " +
                       hostPortText(tunnel_.host, tunnel_.port) + " failed: " + ec.message() +
                       " (the client must trust the session's CA, which moat installs in the sandbox)";
    }
    context_->report(event);
    co_return false;
}

asio::awaitable<bool> InterceptedRelay::connectUpstream(std::string& problem)
{
    UpstreamConnection connection;
    if (tunnel_.upstream.socket) {
        connection = std::move(tunnel_.upstream);
        tunnel_.upstream = {};
    } else if (tunnel_.redial) {
        connection = co_await tunnel_.redial();
    }
    if (!connection.socket) {
        problem = connection.problem.empty() ? "no connection to " + hostPortText(tunnel_.host, tunnel_.port)
                                             : connection.problem;
        co_return false;
    }
    upstream_.emplace(beast::tcp_stream(std::move(*connection.socket)), context_->interception.upstreamTls->context());
    upstreamBuffer_.clear();
    upstreamAddress_ = connection.address;
    requestsOnUpstream_ = 0;
    if (auto prepared = context_->interception.upstreamTls->prepare(upstream_->native_handle(), tunnel_.host);
        !prepared) {
        problem = prepared.error().what;
        upstream_.reset();
        co_return false;
    }
    boost::system::error_code ec;
    beast::get_lowest_layer(*upstream_).expires_after(limits().connectTimeout);
    co_await upstream_->async_handshake(asio::ssl::stream_base::client, untilDone(ec));
    if (ec) {
        problem = ec == beast::error::timeout
                      ? "the TLS handshake with " + hostPortText(tunnel_.host, tunnel_.port) + " did not finish within " +
                            std::to_string(limits().connectTimeout.count()) + " s"
                      : UpstreamTls::failureReason(upstream_->native_handle(), tunnel_.host, tunnel_.port, ec);
        upstream_.reset();
        co_return false;
    }
    beast::get_lowest_layer(*upstream_).expires_never();
    co_return true;
}

// As for plain HTTP: a keep-alive client may wait keepAliveIdle for its next
// request's first byte, then the whole head must arrive within headTimeout.
asio::awaitable<bool> InterceptedRelay::readRequestHead(RequestParser& parser, bool first)
{
    boost::system::error_code ec;
    auto& socket = beast::get_lowest_layer(client_);
    if (!first && clientBuffer_.size() == 0) {
        socket.expires_after(limits().keepAliveIdle);
        const std::size_t n = co_await client_.async_read_some(clientBuffer_.prepare(4096), untilDone(ec));
        if (ec) {
            co_return false;
        }
        clientBuffer_.commit(n);
    }
    socket.expires_after(limits().headTimeout);
    co_await http::async_read_header(client_, clientBuffer_, parser, untilDone(ec));
    socket.expires_never();
    if (!ec) {
        co_return true;
    }
    if (ec == http::error::header_limit) {
        co_await answer(http::status::request_header_fields_too_large,
                        "the request head is larger than " + std::to_string(limits().maxHeaderBytes) + " bytes");
    } else if (ec.category() == http::make_error_code(http::error::bad_target).category() &&
               ec != http::error::end_of_stream) {
        co_await answer(http::status::bad_request, "malformed HTTP request: " + ec.message());
    }
    co_return false;
}

EgressEvent InterceptedRelay::requestEvent(const http::request<http::buffer_body>& request) const
{
    EgressEvent event;
    event.protocol = "https";
    event.host = tunnel_.host;
    event.port = tunnel_.port;
    event.method = std::string(view(request.method_string()).substr(0, 32));
    event.path = std::string(view(request.target()).substr(0, kShownPathLength));
    event.address = upstreamAddress_;
    return event;
}

asio::awaitable<bool> InterceptedRelay::serveRequest(RequestParser& parser)
{
    auto& request = parser.get();
    EgressEvent event = requestEvent(request);
    std::vector<std::string_view> hostHeaders;
    for (const auto& field : request) {
        if (field.name() == http::field::host) {
            hostHeaders.push_back(view(field.value()));
        }
    }
    if (auto refusal = checkInterceptedRequest(view(request.method_string()), view(request.target()), hostHeaders,
                                               tunnel_.host, tunnel_.port)) {
        event.kind = EgressEvent::Kind::Deny;
        event.reason = refusal->reason;
        context_->report(event);
        co_await answer(static_cast<http::status>(refusal->status), refusal->reason);
        co_return false;
    }

    FilteredRequest<TlsStream> filtered(client_, clientBuffer_, parser, limits(),
                                        context_->interception.maxInspectedBody);
    const std::string target(view(request.target()));
    const FilterVerdict verdict = co_await filtered.decide(*tunnel_.filter, tunnel_.host, tunnel_.port, target);
    if (verdict.kind != FilterVerdict::Kind::Forward) {
        event.kind = EgressEvent::Kind::Deny;
        event.reason = verdict.reason;
        context_->report(event);
        co_await answer(static_cast<http::status>(verdict.status), verdict.reason);
        co_return false;
    }
    event.kind = EgressEvent::Kind::Allow;
    event.reason = verdict.reason;
    if (!parser.is_done() && beast::iequals(request[http::field::expect], "100-continue")) {
        // Answered here rather than by the upstream, as for plain HTTP.
        co_await filtered.sendContinue(kProxyAnswerTimeout);
    }
    co_return co_await exchange(parser, filtered, event);
}

asio::awaitable<bool> InterceptedRelay::exchange(RequestParser& parser, FilteredRequest<TlsStream>& filtered,
                                                 EgressEvent& event)
{
    auto& request = parser.get();
    const bool clientKeepAlive = request.keep_alive();
    const bool isHead = request.method() == http::verb::head;
    removeHopByHopFields(request);
    request.erase(http::field::expect);
    request.version(11);
    request.keep_alive(true);
    // A request whose body is not streamed can be sent again, once, when an
    // idle upstream closed between two requests.
    const bool replayable = filtered.bodyWasReadWhole() || parser.is_done();
    std::optional<ResponseParser> reader;
    for (int attempt = 0;; ++attempt) {
        boost::system::error_code ec;
        std::string problem;
        if (!upstream_ && !co_await connectUpstream(problem)) {
            event.kind = EgressEvent::Kind::Error;
            event.reason = problem;
            context_->report(event);
            co_await answer(http::status::bad_gateway, problem);
            co_return false;
        }
        if (attempt == 0) {
            event.address = upstreamAddress_;
            context_->report(event);
        }
        const bool reused = requestsOnUpstream_++ > 0;
        bool sent = false;
        {
            http::serializer<true, http::buffer_body> writer{request};
            auto& out = request.body();
            out.data = nullptr;
            out.more = true;
            beast::get_lowest_layer(*upstream_).expires_after(limits().bodyIdleTimeout);
            co_await http::async_write_header(*upstream_, writer, untilDone(ec));
            if (!ec && filtered.bodyWasRead()) {
                ec = co_await writeReadBody(*upstream_, request, writer, filtered.readBody(),
                                            limits().bodyIdleTimeout, !parser.is_done());
            }
            if (!ec && !parser.is_done()) {
                ec = co_await relayMessageBody(client_, clientBuffer_, parser, *upstream_, writer, *context_->chunks,
                                               limits().bodyIdleTimeout);
            }
            sent = !ec;
        }
        if (sent) {
            ec = co_await readFinalResponseHead(*upstream_, upstreamBuffer_, reader, isHead, limits().maxHeaderBytes,
                                                limits().responseTimeout);
        }
        if (!ec) {
            break;
        }
        upstream_.reset();
        if (reused && attempt == 0 && replayable && isStale(ec)) {
            continue;
        }
        const bool timedOut = ec == beast::error::timeout;
        problem = !sent ? "sending the request to " + upstreamAddress_ + " failed: " + ec.message()
                  : timedOut
                      ? upstreamAddress_ + " sent no response within " +
                            std::to_string(limits().responseTimeout.count()) + " s"
                  : ec == http::error::bad_status
                      ? std::string("the upstream switched protocols, which an intercepted tunnel does not relay")
                      : "reading the response of " + upstreamAddress_ + " failed: " + ec.message();
        co_await answer(timedOut ? http::status::gateway_timeout : http::status::bad_gateway, problem);
        co_return false;
    }

    const RelayedResponse relayed = co_await relayResponse(*upstream_, upstreamBuffer_, *reader, client_,
                                                           clientKeepAlive, isHead, *context_->chunks,
                                                           limits().bodyIdleTimeout);
    if (relayed.error || !relayed.upstreamKeepAlive) {
        upstream_.reset();
    }
    co_return !relayed.error && relayed.clientKeepAlive;
}


// A refusal inside TLS: the agent's client shows it like any answer of the
// server. The connection ends with it (an unread body may follow).
asio::awaitable<void> InterceptedRelay::answer(http::status status, const std::string& reason)
{
    co_await writeRefusal(client_, status, reason);
}

}  // namespace

asio::awaitable<void> relayInterceptedTunnel(std::shared_ptr<ProxyContext> context, InterceptedTunnel tunnel)
{
    InterceptedRelay relay(std::move(context), std::move(tunnel));
    co_await relay.run();
}

}  // namespace moat
