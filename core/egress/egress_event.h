// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace moat {

// One decision or outcome of the egress proxy, for the session's timeline.
// Every string in it is printable: hosts were validated by the parsers and
// reasons are built by EgressPolicy or the proxy.
struct EgressEvent {
    enum class Kind {
        Allow,  // net.allow: the rules allowed it and the upstream was reached
        Deny,   // net.deny: refused, with the reason the agent was given
        Error,  // net.error: allowed, but the upstream could not be reached
    };

    Kind kind = Kind::Deny;
    std::string protocol;  // "http", "connect", "socks5", or "https" for a request inside an intercepted tunnel
    std::string host;      // as the agent asked (normalised); empty when unreadable
    std::string target;    // the raw request target, when it could not be read (truncated)
    std::uint16_t port = 0;
    std::string method;  // plain HTTP and intercepted HTTPS requests only
    std::string path;    // plain HTTP and intercepted HTTPS requests only (path and query, truncated)
    std::string address;  // the address dialled ("203.0.113.7:443"), Allow and Error
    std::string reason;   // why: the rule that allowed, or the refusal
    std::string suggestion;  // the flag that would allow a denial, if any
    // connect: the tunnel is intercepted (TLS ended at the proxy); each
    // request inside it is an event of its own, protocol "https".
    bool intercepted = false;
};

using EgressEventSink = std::function<void(const EgressEvent&)>;

}  // namespace moat
