// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/asio_coroutines.h"
#include "egress/egress_policy.h"
#include "egress/proxy_limits.h"

#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace moat {

// The outcome of opening a connection for the agent.
struct DialResult {
    enum class Outcome {
        Connected,   // socket is open to an address the rules allow
        Denied,      // the rules refuse it; nothing was resolved or dialled when the name alone decided
        Unresolved,  // the name has no address (or resolution failed)
        Failed,      // every allowed address refused or was unreachable
        TimedOut,    // resolution or connect took longer than ProxyLimits allows
    };

    Outcome outcome = Outcome::Denied;
    std::optional<boost::asio::ip::tcp::socket> socket;
    EgressDecision decision;  // the rule that allowed it, or the refusal
    std::string address;      // "203.0.113.7:443", "[2001:db8::1]:443": what was dialled
    std::string problem;      // one line, when Unresolved, Failed or TimedOut
};

// Decides, resolves and connects, on the host side of the sandbox. The order
// is the security property: the name is judged before it is resolved (a name
// the rules refuse is never looked up, so a lookup cannot leak it), and every
// address the resolver returns is judged again before it is dialled (a name
// that resolves to 127.0.0.1 or 169.254.169.254 reaches nothing).
// host is a RequestTarget host: a normalised name or an IP literal.
boost::asio::awaitable<DialResult> dialUpstream(const EgressPolicy& policy, const ProxyLimits& limits,
                                                std::string host, std::uint16_t port);

// "host:port" with IPv6 in brackets.
std::string endpointText(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace moat
