// SPDX-License-Identifier: Apache-2.0
#include "egress/upstream_dialer.h"

#include "egress/ip_address.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>

#include <memory>
#include <vector>

namespace moat {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

asio::ip::address toAsio(const IpAddress& address)
{
    if (address.isV4()) {
        return asio::ip::address_v4(address.v4());
    }
    // A zone only matters for link-local addresses, which the policy refuses
    // unless a literal allowed them; those are dialled without one.
    asio::ip::address_v6::bytes_type bytes;
    std::copy(address.bytes().begin(), address.bytes().end(), bytes.begin());
    return asio::ip::address_v6(bytes);
}

IpAddress fromAsio(const asio::ip::address& address)
{
    if (address.is_v4()) {
        return IpAddress::fromV4(address.to_v4().to_uint());
    }
    IpAddress::Bytes bytes;
    const auto v6 = address.to_v6().to_bytes();
    std::copy(v6.begin(), v6.end(), bytes.begin());
    return IpAddress::fromV6(bytes);
}

DialResult refused(EgressDecision decision)
{
    DialResult result;
    result.outcome = DialResult::Outcome::Denied;
    result.decision = std::move(decision);
    return result;
}

DialResult problem(DialResult::Outcome outcome, std::string text)
{
    DialResult result;
    result.outcome = outcome;
    result.problem = std::move(text);
    return result;
}

// Resolution on the host, bounded: the resolver runs getaddrinfo on Asio's
// private thread, and a resolver that never answers must not hold the agent.
asio::awaitable<std::vector<tcp::endpoint>> resolve(const std::string& host, std::uint16_t port,
                                                    ProxyLimits::Seconds timeout, boost::system::error_code& ec)
{
    auto executor = co_await asio::this_coro::executor;
    // Shared with the deadline's handler, which may already be queued when
    // the resolution completes and so outlive this frame.
    auto resolver = std::make_shared<tcp::resolver>(executor);
    auto timedOut = std::make_shared<bool>(false);
    asio::steady_timer deadline(executor, timeout);
    deadline.async_wait([resolver, timedOut](const boost::system::error_code& waited) {
        if (!waited) {
            *timedOut = true;
            resolver->cancel();
        }
    });
    auto results = co_await resolver->async_resolve(host, std::to_string(port), tcp::resolver::numeric_service,
                                                    untilDone(ec));
    deadline.cancel();
    if (*timedOut) {
        ec = asio::error::timed_out;
    }
    std::vector<tcp::endpoint> endpoints;
    for (const auto& entry : results) {
        endpoints.push_back(entry.endpoint());
    }
    co_return endpoints;
}

}  // namespace

std::string endpointText(const tcp::endpoint& endpoint)
{
    const auto address = endpoint.address();
    const std::string text = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    return text + ":" + std::to_string(endpoint.port());
}

asio::awaitable<DialResult> dialUpstream(const EgressPolicy& policy, const ProxyLimits& limits, std::string host,
                                         std::uint16_t port)
{
    EgressDecision byName = policy.decideName(host, port);
    if (!byName.allowed) {
        co_return refused(std::move(byName));
    }

    // Candidates in resolver order, each judged on its own.
    std::vector<tcp::endpoint> candidates;
    if (auto literal = IpAddress::parse(host); literal) {
        candidates.emplace_back(toAsio(*literal), port);
    } else {
        boost::system::error_code ec;
        candidates = co_await resolve(host, port, limits.resolveTimeout, ec);
        if (ec == asio::error::timed_out) {
            co_return problem(DialResult::Outcome::TimedOut,
                              "resolving " + host + " took longer than " +
                                  std::to_string(limits.resolveTimeout.count()) + " s");
        }
        if (ec || candidates.empty()) {
            co_return problem(DialResult::Outcome::Unresolved,
                              "cannot resolve " + host + (ec ? ": " + ec.message() : ": no address"));
        }
    }

    std::vector<tcp::endpoint> allowed;
    std::optional<EgressDecision> firstRefusal;
    EgressDecision allowedBy;
    for (const auto& candidate : candidates) {
        EgressDecision decision = policy.decideResolved(host, port, fromAsio(candidate.address()));
        if (decision.allowed) {
            if (allowed.empty()) {
                allowedBy = std::move(decision);
            }
            allowed.push_back(candidate);
        } else if (!firstRefusal) {
            firstRefusal = std::move(decision);
        }
    }
    if (allowed.empty()) {
        co_return refused(std::move(*firstRefusal));
    }

    auto executor = co_await asio::this_coro::executor;
    auto socket = std::make_shared<tcp::socket>(executor);
    auto timedOut = std::make_shared<bool>(false);
    asio::steady_timer deadline(executor, limits.connectTimeout);
    deadline.async_wait([socket, timedOut](const boost::system::error_code& waited) {
        if (!waited) {
            *timedOut = true;
            boost::system::error_code ignored;
            socket->close(ignored);
        }
    });
    boost::system::error_code ec;
    const tcp::endpoint reached = co_await asio::async_connect(*socket, allowed, untilDone(ec));
    deadline.cancel();
    DialResult result;
    result.decision = std::move(allowedBy);
    result.address = endpointText(ec ? allowed.front() : reached);
    if (*timedOut) {
        result.outcome = DialResult::Outcome::TimedOut;
        result.problem = "connecting to " + result.address + " took longer than " +
                         std::to_string(limits.connectTimeout.count()) + " s";
        co_return result;
    }
    if (ec) {
        result.outcome = DialResult::Outcome::Failed;
        result.problem = "cannot connect to " + result.address + ": " + ec.message();
        co_return result;
    }
    boost::system::error_code ignored;
    socket->set_option(tcp::no_delay(true), ignored);
    result.outcome = DialResult::Outcome::Connected;
    result.socket.emplace(std::move(*socket));
    co_return result;
}

}  // namespace moat
