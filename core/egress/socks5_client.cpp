// SPDX-License-Identifier: Apache-2.0
#include "egress/socks5_client.h"

#include "egress/server_name_check.h"
#include "egress/socks5_messages.h"
#include "egress/splice_tunnel.h"
#include "egress/upstream_dialer.h"

#include <boost/asio/write.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include <vector>

namespace moat {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;

namespace {

using Reply = Socks5Messages::Reply;
using Outcome = Socks5Messages::Outcome;

// Reads until `parse` decides, within the stream's current deadline; the
// buffer never grows past one message (Socks5Messages::kMaxMessageLength).
template <class Parse>
asio::awaitable<decltype(std::declval<Parse>()(std::span<const std::uint8_t>{}))> readMessage(
    beast::tcp_stream& stream, std::vector<std::uint8_t>& buffer, Parse parse)
{
    for (;;) {
        auto parsed = parse(std::span<const std::uint8_t>(buffer));
        if (parsed.outcome != Outcome::NeedMoreBytes) {
            buffer.erase(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(parsed.consumed));
            co_return parsed;
        }
        const std::size_t have = buffer.size();
        buffer.resize(Socks5Messages::kMaxMessageLength + 1);
        boost::system::error_code ec;
        const std::size_t n = co_await stream.async_read_some(
            asio::buffer(buffer.data() + have, buffer.size() - have), untilDone(ec));
        buffer.resize(have + n);
        if (ec) {
            parsed.outcome = Outcome::Malformed;
            parsed.problem = ec == beast::error::timeout ? "the SOCKS5 request did not arrive in time"
                                                          : "the client closed the connection";
            co_return parsed;
        }
    }
}

asio::awaitable<void> send(beast::tcp_stream& stream, std::span<const std::uint8_t> bytes)
{
    boost::system::error_code ec;
    stream.expires_after(std::chrono::seconds(5));
    co_await asio::async_write(stream, asio::buffer(bytes.data(), bytes.size()), untilDone(ec));
}

Reply replyFor(const DialResult& dial)
{
    switch (dial.outcome) {
    case DialResult::Outcome::Denied:
        return Reply::NotAllowedByRuleset;
    case DialResult::Outcome::Failed:
        return Reply::ConnectionRefused;
    case DialResult::Outcome::Unresolved:
    case DialResult::Outcome::TimedOut:
        return Reply::HostUnreachable;
    case DialResult::Outcome::Connected:
        break;
    }
    return Reply::Succeeded;
}

}  // namespace

asio::awaitable<void> serveSocks5Client(std::shared_ptr<ProxyContext> context, tcp::socket socket)
{
    auto slot = std::make_shared<ConnectionSlot>(context);
    beast::tcp_stream client(std::move(socket));
    std::vector<std::uint8_t> buffer;
    buffer.reserve(Socks5Messages::kMaxMessageLength + 1);

    // Both messages within one head deadline: a slow client gets no more
    // time here than an HTTP one does.
    client.expires_after(context->limits.headTimeout);
    const auto greeting = co_await readMessage(client, buffer, Socks5Messages::parseGreeting);
    if (greeting.outcome != Outcome::Complete) {
        co_return;  // not SOCKS5, or gone: nothing to answer
    }
    const auto methodReply = Socks5Messages::greetingReply(greeting.method);
    co_await send(client, methodReply);
    if (greeting.method != Socks5Messages::kNoAuthentication) {
        co_return;
    }

    client.expires_after(context->limits.headTimeout);
    const auto request = co_await readMessage(client, buffer, Socks5Messages::parseConnectRequest);
    if (request.outcome == Outcome::Malformed) {
        co_return;
    }
    EgressEvent event;
    event.protocol = "socks5";
    if (request.outcome == Outcome::Refused) {
        event.kind = EgressEvent::Kind::Deny;
        event.reason = request.problem;
        context->report(event);
        co_await send(client, Socks5Messages::reply(request.refusal));
        co_return;
    }
    event.host = request.host.text;
    event.port = request.port;

    DialResult dial = co_await dialUpstream(context->policy, context->limits, request.host.text, request.port);
    if (dial.outcome != DialResult::Outcome::Connected) {
        event.kind = dial.outcome == DialResult::Outcome::Denied ? EgressEvent::Kind::Deny : EgressEvent::Kind::Error;
        event.reason = dial.outcome == DialResult::Outcome::Denied ? dial.decision.reason : dial.problem;
        event.suggestion = dial.decision.suggestion;
        event.address = dial.address;
        context->report(event);
        co_await send(client, Socks5Messages::reply(replyFor(dial)));
        co_return;
    }
    event.address = dial.address;
    if (context->interception.intercept && context->interception.intercept(request.host.text, request.port)) {
        // The session's rules or secrets must see this host's requests, and
        // a SOCKS5 tunnel is never intercepted: refused, so that no rule can
        // be skipped by choosing the other listener.
        event.kind = EgressEvent::Kind::Deny;
        event.reason = request.host.text + ":" + std::to_string(request.port) +
                       " is inspected by the session's rules; reach it through the HTTP proxy (HTTPS_PROXY), "
                       "not SOCKS5";
        context->report(event);
        co_await send(client, Socks5Messages::reply(Reply::NotAllowedByRuleset));
        co_return;
    }
    event.kind = EgressEvent::Kind::Allow;
    event.reason = dial.decision.reason;
    context->report(event);
    co_await send(client, Socks5Messages::reply(Reply::Succeeded));
    client.expires_never();

    SpliceTunnel::Options options;
    options.clientBytes = std::move(buffer);  // anything sent after the request
    options.check = serverNameCheck(request.host.text, request.port);
    options.lease = slot;
    options.onRefused = [context, event](const std::string& reason) mutable {
        event.kind = EgressEvent::Kind::Deny;
        event.reason = reason;
        context->report(event);
    };
    auto tunnel = std::make_shared<SpliceTunnel>(context->pipes, context->limits, client.release_socket(),
                                                 std::move(*dial.socket), std::move(options));
    tunnel->start();
}

}  // namespace moat
