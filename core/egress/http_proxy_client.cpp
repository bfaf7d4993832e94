// SPDX-License-Identifier: Apache-2.0
#include "egress/http_proxy_client.h"

#include "egress/control_api.h"
#include "egress/control_exchange.h"
#include "egress/http_message_relay.h"
#include "egress/proxy_request.h"
#include "egress/request_target.h"
#include "egress/server_name_check.h"
#include "egress/splice_tunnel.h"
#include "egress/tls/client_tls.h"
#include "egress/tls/filtered_request.h"
#include "egress/tls/intercepted_relay.h"
#include "egress/upstream_dialer.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <optional>
#include <string>
#include <vector>

namespace moat {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

namespace {

using RequestParser = http::request_parser<http::buffer_body>;
using ResponseParser = http::response_parser<http::buffer_body>;

constexpr auto kAnswerTimeout = kProxyAnswerTimeout;
constexpr std::size_t kShownTargetLength = 256;

std::string_view view(beast::string_view text)
{
    return beastView(text);
}

// Cancels the operations on a socket when it expires, leaving the socket
// open (Beast's own deadline closes it): a client whose request head is too
// slow still gets its 408. The handler may already be queued when the
// deadline is disarmed, so it checks a flag shared with it first.
class HeadDeadline {
public:
    HeadDeadline(tcp::socket& socket, std::chrono::seconds after)
        : timer_(socket.get_executor(), after), armed_(std::make_shared<bool>(true))
    {
        timer_.async_wait([&socket, armed = armed_, expired = expired_](const boost::system::error_code& ec) {
            if (!ec && *armed) {
                *expired = true;
                boost::system::error_code ignored;
                socket.cancel(ignored);
            }
        });
    }
    ~HeadDeadline()
    {
        *armed_ = false;
        timer_.cancel();
    }
    HeadDeadline(const HeadDeadline&) = delete;
    HeadDeadline& operator=(const HeadDeadline&) = delete;

    bool expired() const { return *expired_; }

private:
    asio::steady_timer timer_;
    std::shared_ptr<bool> armed_;
    std::shared_ptr<bool> expired_ = std::make_shared<bool>(false);
};

// A connection to one upstream, kept between requests of a keep-alive client.
struct Upstream {
    beast::tcp_stream stream;
    beast::flat_buffer buffer;
    std::string host;
    std::uint16_t port = 0;
    std::string address;
};

class HttpProxyClient {
public:
    HttpProxyClient(std::shared_ptr<ProxyContext> context, tcp::socket socket)
        : context_(std::move(context)), slot_(std::make_shared<ConnectionSlot>(context_)), client_(std::move(socket))
    {
    }

    asio::awaitable<void> serve();

private:
    enum class Next { KeepServing, Close, BecameTunnel };

    const ProxyLimits& limits() const { return context_->limits; }
    asio::awaitable<bool> readRequestHead(RequestParser& parser, bool firstRequest);
    asio::awaitable<Next> handle(RequestParser& parser);
    asio::awaitable<Next> answerControl(RequestParser& parser, const RequestTarget& target);
    asio::awaitable<bool> answerEstablished();
    asio::awaitable<Next> openTunnel(RequestParser& parser, const RequestTarget& target);
    asio::awaitable<Next> intercept(const RequestTarget& target, DialResult dial, EgressEvent event,
                                    std::shared_ptr<HttpExchangeFilter> filter);
    asio::awaitable<Next> forward(RequestParser& parser, const RequestTarget& target);
    asio::awaitable<bool> connectUpstream(const RequestTarget& target, EgressEvent& event);
    asio::awaitable<Next> refuse(http::status status, std::string reason);
    asio::awaitable<Next> refuseDial(const DialResult& dial, EgressEvent event);

    std::shared_ptr<ProxyContext> context_;
    std::shared_ptr<ConnectionSlot> slot_;
    beast::tcp_stream client_;
    beast::flat_buffer buffer_;
    std::optional<Upstream> upstream_;
};

EgressEvent eventFor(const char* protocol, const RequestTarget& target)
{
    EgressEvent event;
    event.protocol = protocol;
    event.host = target.host();
    event.port = target.port();
    if (target.kind() == RequestTarget::Kind::Absolute) {
        event.method = target.method();
        event.path = target.path().substr(0, kShownTargetLength);
    }
    return event;
}

asio::awaitable<void> HttpProxyClient::serve()
{
    bool firstRequest = true;
    for (;;) {
        RequestParser parser;
        parser.header_limit(static_cast<std::uint32_t>(limits().maxHeaderBytes));
        parser.body_limit(kUnlimitedBody);  // bodies are streamed, never held whole
        if (!co_await readRequestHead(parser, firstRequest)) {
            co_return;
        }
        firstRequest = false;
        const Next next = co_await handle(parser);
        if (next != Next::KeepServing) {
            co_return;
        }
    }
}

// The head of the next request, bounded twice: a keep-alive connection may
// wait keepAliveIdle for its first byte, and from then on (or from the
// connection's start) the whole head must arrive within headTimeout.
asio::awaitable<bool> HttpProxyClient::readRequestHead(RequestParser& parser, bool firstRequest)
{
    boost::system::error_code ec;
    if (!firstRequest && buffer_.size() == 0) {
        client_.expires_after(limits().keepAliveIdle);
        const std::size_t n = co_await client_.async_read_some(buffer_.prepare(4096), untilDone(ec));
        if (ec) {
            co_return false;  // closed, or idle too long: nothing to answer
        }
        buffer_.commit(n);
    }
    client_.expires_never();
    bool expired = false;
    {
        HeadDeadline deadline(client_.socket(), limits().headTimeout);
        co_await http::async_read_header(client_, buffer_, parser, untilDone(ec));
        expired = deadline.expired();
    }
    if (!ec) {
        co_return true;
    }
    if (ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset) {
        co_return false;
    }
    if (ec == http::error::header_limit) {
        co_await refuse(http::status::request_header_fields_too_large,
                        "the request head is larger than " + std::to_string(limits().maxHeaderBytes) + " bytes");
    } else if (expired) {
        co_await refuse(http::status::request_timeout, "the request head did not arrive within " +
                                                           std::to_string(limits().headTimeout.count()) + " s");
    } else {
        co_await refuse(http::status::bad_request, "malformed HTTP request: " + ec.message());
    }
    co_return false;
}

asio::awaitable<HttpProxyClient::Next> HttpProxyClient::handle(RequestParser& parser)
{
    const auto& request = parser.get();
    const std::string_view method = view(request.method_string());
    const std::string_view rawTarget = view(request.target());
    std::vector<std::string_view> hostHeaders;
    for (const auto& field : request) {
        if (field.name() == http::field::host) {
            hostHeaders.push_back(view(field.value()));
        }
    }
    const ProxyRequest classified = ProxyRequest::classify(method, rawTarget, hostHeaders, context_->controlPort);
    switch (classified.kind) {
    case ProxyRequest::Kind::Control:
        co_return co_await answerControl(parser, *classified.target);
    case ProxyRequest::Kind::Tunnel:
        co_return co_await openTunnel(parser, *classified.target);
    case ProxyRequest::Kind::Forward:
        co_return co_await forward(parser, *classified.target);
    case ProxyRequest::Kind::Invalid:
        break;
    }
    // Unreadable or ambiguous (a Host header naming another destination is
    // one): refused, and recorded as the attempt it may be.
    EgressEvent event;
    event.kind = EgressEvent::Kind::Deny;
    event.protocol = method == "CONNECT" ? "connect" : "http";
    event.method = std::string(method.substr(0, 32));
    event.target = std::string(rawTarget.substr(0, kShownTargetLength));
    event.reason = classified.problem;
    context_->report(event);
    co_return co_await refuse(static_cast<http::status>(classified.status), classified.problem);
}

asio::awaitable<HttpProxyClient::Next> HttpProxyClient::answerControl(RequestParser& parser,
                                                                      const RequestTarget& target)
{
    const auto& request = parser.get();
    const std::string_view path = target.path();
    if (isEscalationRequest(view(request.method_string()), path)) {
        const auto question = path.find('?');
        const std::string_view query = question == std::string_view::npos ? std::string_view() : path.substr(question + 1);
        const bool again =
            co_await answerEscalationRequest(client_, buffer_, parser, query, *context_, limits().headTimeout);
        co_return again ? Next::KeepServing : Next::Close;
    }
    if (!parser.is_done()) {
        co_return co_await refuse(http::status::payload_too_large,
                                  "this control endpoint takes no request body (only POST /v1/requests does)");
    }
    const nlohmann::json session = context_->sessionInfo ? context_->sessionInfo() : nlohmann::json::object();
    const ControlResponse answer = answerControlRequest(view(request.method_string()), path, session);
    const bool again =
        co_await writeControlResponse(client_, answer, request.method() == http::verb::head, request.keep_alive());
    co_return again ? Next::KeepServing : Next::Close;
}

asio::awaitable<HttpProxyClient::Next> HttpProxyClient::refuse(http::status status, std::string reason)
{
    co_await writeRefusal(client_, status, reason);
    boost::system::error_code ec;
    client_.socket().shutdown(tcp::socket::shutdown_send, ec);
    co_return Next::Close;
}

asio::awaitable<HttpProxyClient::Next> HttpProxyClient::refuseDial(const DialResult& dial, EgressEvent event)
{
    switch (dial.outcome) {
    case DialResult::Outcome::Denied:
        event.kind = EgressEvent::Kind::Deny;
        event.reason = dial.decision.reason;
        event.suggestion = dial.decision.suggestion;
        context_->report(event);
        co_return co_await refuse(http::status::forbidden, dial.decision.reason);
    case DialResult::Outcome::TimedOut:
        event.kind = EgressEvent::Kind::Error;
        event.address = dial.address;
        event.reason = dial.problem;
        context_->report(event);
        co_return co_await refuse(http::status::gateway_timeout, dial.problem);
    case DialResult::Outcome::Unresolved:
    case DialResult::Outcome::Failed:
    case DialResult::Outcome::Connected:
        break;
    }
    event.kind = EgressEvent::Kind::Error;
    event.address = dial.address;
    event.reason = dial.problem;
    context_->report(event);
    co_return co_await refuse(http::status::bad_gateway, dial.problem);
}

asio::awaitable<bool> HttpProxyClient::answerEstablished()
{
    static constexpr std::string_view kEstablished = "HTTP/1.1 200 Connection established\r\n\r\n";
    boost::system::error_code ec;
    client_.expires_after(kAnswerTimeout);
    co_await asio::async_write(client_, asio::buffer(kEstablished), untilDone(ec));
    client_.expires_never();
    co_return !ec;
}

asio::awaitable<HttpProxyClient::Next> HttpProxyClient::openTunnel(RequestParser& parser, const RequestTarget& target)
{
    const auto& request = parser.get();
    if (!parser.is_done() || request.has_content_length() || request.chunked()) {
        co_return co_await refuse(http::status::bad_request, "a CONNECT request has no body");
    }
    EgressEvent event = eventFor("connect", target);
    DialResult dial = co_await dialUpstream(context_->policy, limits(), target.host(), target.port());
    if (dial.outcome != DialResult::Outcome::Connected) {
        co_return co_await refuseDial(dial, std::move(event));
    }
    event.kind = EgressEvent::Kind::Allow;
    event.address = dial.address;
    event.reason = dial.decision.reason;
    if (context_->interception.intercept) {
        if (auto filter = context_->interception.intercept(target.host(), target.port())) {
            co_return co_await intercept(target, std::move(dial), std::move(event), std::move(filter));
        }
    }
    context_->report(event);

    if (!co_await answerEstablished()) {
        co_return Next::Close;
    }

    SpliceTunnel::Options options;
    const auto pending = buffer_.data();  // bytes the agent sent right after its CONNECT
    const auto* first = static_cast<const std::uint8_t*>(pending.data());
    options.clientBytes.assign(first, first + pending.size());
    options.check = serverNameCheck(target.host(), target.port());
    options.lease = slot_;
    options.onRefused = [context = context_, event](const std::string& reason) mutable {
        event.kind = EgressEvent::Kind::Deny;
        event.reason = reason;
        event.suggestion.clear();
        context->report(event);
    };
    auto tunnel = std::make_shared<SpliceTunnel>(context_->pipes, limits(), client_.release_socket(),
                                                 std::move(*dial.socket), std::move(options));
    tunnel->start();
    co_return Next::BecameTunnel;
}

// A new connection to an intercepted tunnel's destination, through the same
// rules as the first, for a relay whose idle upstream closed.
asio::awaitable<UpstreamConnection> redialUpstream(std::shared_ptr<ProxyContext> context, std::string host,
                                                   std::uint16_t port)
{
    DialResult dial = co_await dialUpstream(context->policy, context->limits, std::move(host), port);
    UpstreamConnection connection;
    connection.address = dial.address;
    if (dial.outcome == DialResult::Outcome::Connected) {
        connection.socket = std::move(dial.socket);
    } else {
        connection.problem = dial.outcome == DialResult::Outcome::Denied ? dial.decision.reason : dial.problem;
    }
    co_return connection;
}

// An allowed CONNECT whose destination the session intercepts: the TLS ends
// here and each request inside goes through the filter. Without the
// session's CA or upstream TLS the tunnel is refused: a host that needs
// inspection is never tunnelled blind.
asio::awaitable<HttpProxyClient::Next> HttpProxyClient::intercept(const RequestTarget& target, DialResult dial,
                                                                  EgressEvent event,
                                                                  std::shared_ptr<HttpExchangeFilter> filter)
{
    TlsInterception& interception = context_->interception;
    std::string problem;
    if (!interception.clientTls && interception.authority) {
        auto made = ClientTls::create(interception.authority);
        if (made) {
            interception.clientTls = std::move(made.value());
        } else {
            problem = made.error().what;
        }
    }
    if (!interception.clientTls || !interception.upstreamTls) {
        event.kind = EgressEvent::Kind::Error;
        event.reason = problem.empty() ? "the session intercepts " + target.host() +
                                             " but has no TLS authority to do it with; the tunnel was refused"
                                       : problem;
        context_->report(event);
        co_return co_await refuse(http::status::bad_gateway, event.reason);
    }
    event.intercepted = true;
    context_->report(event);

    if (!co_await answerEstablished()) {
        co_return Next::Close;
    }

    const auto pending = buffer_.data();  // bytes the agent sent right after its CONNECT
    const auto* first = static_cast<const std::uint8_t*>(pending.data());
    InterceptedTunnel tunnel{target.host(),
                             target.port(),
                             client_.release_socket(),
                             std::vector<std::uint8_t>(first, first + pending.size()),
                             UpstreamConnection{std::move(dial.socket), dial.address, {}},
                             [context = context_, host = target.host(), port = target.port()] {
                                 return redialUpstream(context, host, port);
                             },
                             std::move(filter),
                             interception.clientTls,
                             event,
                             slot_};
    co_await relayInterceptedTunnel(context_, std::move(tunnel));
    co_return Next::BecameTunnel;
}

asio::awaitable<bool> HttpProxyClient::connectUpstream(const RequestTarget& target, EgressEvent& event)
{
    if (upstream_ && upstream_->port == target.port() &&
        EgressPolicy::sameDestination(upstream_->host, upstream_->port, target.host(), target.port())) {
        co_return true;
    }
    upstream_.reset();
    DialResult dial = co_await dialUpstream(context_->policy, limits(), target.host(), target.port());
    if (dial.outcome != DialResult::Outcome::Connected) {
        co_await refuseDial(dial, event);
        co_return false;
    }
    upstream_.emplace(Upstream{beast::tcp_stream(std::move(*dial.socket)), {}, target.host(), target.port(),
                               dial.address});
    event.reason = dial.decision.reason;
    co_return true;
}


asio::awaitable<HttpProxyClient::Next> HttpProxyClient::forward(RequestParser& parser, const RequestTarget& target)
{
    auto& request = parser.get();
    EgressEvent event = eventFor("http", target);
    const bool reused = upstream_ && upstream_->port == target.port() &&
                        EgressPolicy::sameDestination(upstream_->host, upstream_->port, target.host(), target.port());
    if (!co_await connectUpstream(target, event)) {
        co_return Next::Close;
    }
    if (reused) {
        event.reason = context_->policy.decideName(target.host(), target.port()).reason;
    }
    event.address = upstream_->address;
    // A host the session inspects is inspected over plain HTTP too: its
    // rules and secrets cannot be skipped by dropping TLS.
    std::optional<FilteredRequest<beast::tcp_stream>> filtered;
    if (auto filter = context_->interception.intercept
                          ? context_->interception.intercept(target.host(), target.port())
                          : nullptr) {
        filtered.emplace(client_, buffer_, parser, limits(), context_->interception.maxInspectedBody);
        const FilterVerdict verdict = co_await filtered->decide(*filter, target.host(), target.port(), target.path());
        if (verdict.kind != FilterVerdict::Kind::Forward) {
            event.kind = EgressEvent::Kind::Deny;
            event.reason = verdict.reason;
            context_->report(event);
            co_return co_await refuse(static_cast<http::status>(verdict.status), verdict.reason);
        }
        if (!verdict.reason.empty()) {
            event.reason = verdict.reason;
        }
    }
    const bool bodyWasRead = filtered && filtered->bodyWasRead();
    event.kind = EgressEvent::Kind::Allow;
    context_->report(event);

    const bool clientKeepAlive = request.keep_alive();
    const bool expectsContinue = beast::iequals(request[http::field::expect], "100-continue");
    const bool isHead = request.method() == http::verb::head;

    // The upstream sees an origin-form request for its own host, without the
    // fields that described the agent's connection to the proxy.
    request.target(beast::string_view(target.path().data(), target.path().size()));
    removeHopByHopFields(request);
    request.erase(http::field::expect);
    request.version(11);
    request.keep_alive(true);
    if (expectsContinue && !(filtered && filtered->continued())) {
        // Answered here rather than by the upstream: the body is streamed
        // anyway, and waiting on the upstream's interim answer gains nothing.
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        boost::system::error_code ec;
        client_.expires_after(kAnswerTimeout);
        co_await asio::async_write(client_, asio::buffer(kContinue), untilDone(ec));
        if (ec) {
            co_return Next::Close;
        }
    }

    // A keep-alive upstream may have closed while idle: a request without a
    // body is sent again, once, on a fresh connection.
    const bool bodyless = parser.is_done();
    std::optional<ResponseParser> reader;
    for (int attempt = 0;; ++attempt) {
        boost::system::error_code ec;
        bool sent = false;
        {
            http::serializer<true, http::buffer_body> requestWriter{request};
            upstream_->stream.expires_after(limits().bodyIdleTimeout);
            co_await http::async_write_header(upstream_->stream, requestWriter, untilDone(ec));
            if (!ec && bodyWasRead) {
                ec = co_await writeReadBody(upstream_->stream, request, requestWriter, filtered->readBody(),
                                            limits().bodyIdleTimeout, !parser.is_done());
            }
            if (!ec && !parser.is_done()) {
                ec = co_await relayMessageBody(client_, buffer_, parser, upstream_->stream, requestWriter,
                                               *context_->chunks,
                                               limits().bodyIdleTimeout);
            }
            sent = !ec;
        }
        if (sent) {
            ec = co_await readFinalResponseHead(upstream_->stream, upstream_->buffer, reader, isHead,
                                                limits().maxHeaderBytes, limits().responseTimeout);
        }
        if (!ec) {
            break;
        }
        const bool stale = ec == http::error::end_of_stream || ec == asio::error::eof ||
                           ec == asio::error::connection_reset || ec == asio::error::broken_pipe;
        if (reused && attempt == 0 && bodyless && stale) {
            upstream_.reset();
            if (!co_await connectUpstream(target, event)) {
                co_return Next::Close;
            }
            continue;
        }
        const bool timedOut = ec == beast::error::timeout;
        const std::string problem =
            !sent      ? "sending the request to " + upstream_->address + " failed: " + ec.message()
            : timedOut ? upstream_->address + " sent no response within " +
                             std::to_string(limits().responseTimeout.count()) + " s"
            : ec == http::error::bad_status
                ? "the upstream switched protocols, which the proxy does not relay; use CONNECT"
                : "reading the response of " + upstream_->address + " failed: " + ec.message();
        upstream_.reset();
        co_return co_await refuse(timedOut ? http::status::gateway_timeout : http::status::bad_gateway, problem);
    }

    const RelayedResponse relayed = co_await relayResponse(upstream_->stream, upstream_->buffer, *reader, client_,
                                                           clientKeepAlive, isHead, *context_->chunks,
                                                           limits().bodyIdleTimeout);
    if (relayed.error || !relayed.upstreamKeepAlive) {
        upstream_.reset();
    }
    co_return relayed.error || !relayed.clientKeepAlive ? Next::Close : Next::KeepServing;
}

}  // namespace

asio::awaitable<void> serveHttpProxyClient(std::shared_ptr<ProxyContext> context, tcp::socket socket)
{
    HttpProxyClient client(std::move(context), std::move(socket));
    co_await client.serve();
}

}  // namespace moat
