// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "egress/host_pattern.h"
#include "egress/ip_address.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace moat {

// The answer to "may the sandbox reach this?".
struct EgressDecision {
    bool allowed = false;
    // One line, printable ASCII, for the agent's error and the timeline:
    // "example.org:443 is not allowed; run with --allow-host example.org".
    // Names the pattern that allowed it when allowed.
    std::string reason;
    // The flag that would allow it, such as "--allow-host example.org:8443";
    // empty when allowed, and when no flag can (an invalid host, port 0).
    std::string suggestion;
};

// What --allow-host permits, decided without sockets. The proxy, on the host
// side, calls decideName() with the destination the agent asked for, resolves
// the name itself, and calls decideResolved() for each address before it
// dials; the agent's own resolution and its Host header or SNI never choose
// the address.
//
// Whatever the patterns say:
//  - an IP literal, in any spelling, is reached only when an IP-literal
//    pattern names that address and port; a wildcard never covers one;
//  - names that mean the host itself or a cloud metadata service (localhost,
//    *.localhost, metadata.google.internal, ...) are refused unless an exact,
//    non-wildcard pattern names them;
//  - an address that is not public unicast (loopback, private, link-local,
//    CGNAT, metadata, ...; see IpAddress) is refused after resolution unless
//    an IP-literal pattern names that address and port.
// A default-constructed policy allows nothing.
class EgressPolicy {
public:
    EgressPolicy() = default;
    explicit EgressPolicy(std::vector<HostPattern> patterns) : patterns_(std::move(patterns)) {}
    // Each value of --allow-host, in order; the first invalid one is the error.
    static Result<EgressPolicy> fromArguments(std::span<const std::string> values);

    const std::vector<HostPattern>& patterns() const { return patterns_; }

    // Before resolution. host is what the agent asked for: a name, or an IP
    // literal in any spelling, IPv6 with or without brackets.
    EgressDecision decideName(std::string_view host, uint16_t port) const;
    // After the proxy's own resolution of host to resolved. Includes
    // decideName(host, port), so a caller cannot skip it.
    EgressDecision decideResolved(std::string_view host, uint16_t port, const IpAddress& resolved) const;

    // Names refused under a wildcard, however they are spelt: the host's own
    // loopback names and the metadata services' names. name is normalised.
    static bool isSensitiveName(std::string_view name);

    // Whether two host/port pairs name the same destination: names compared
    // without case and trailing dot, IP literals by address whatever their
    // spelling. Anything invalid, and port 0, names nothing.
    static bool sameDestination(std::string_view host, uint16_t port, std::string_view otherHost, uint16_t otherPort);
    // Whether an HTTP Host header ("example.com", "example.com:8080",
    // "[2001:db8::1]:443") names host:port; a header without a port means
    // defaultPort (80 for plain HTTP, 443 inside a CONNECT tunnel).
    static bool hostHeaderNames(std::string_view hostHeader, uint16_t defaultPort, std::string_view host, uint16_t port);
    // Whether a TLS server_name names host. SNI carries no port and, by RFC
    // 6066, never an IP literal: an SNI that is one names nothing, and an
    // empty SNI names nothing (whether to accept a ClientHello without one is
    // the caller's decision).
    static bool serverNameNames(std::string_view serverName, std::string_view host);

private:
    EgressDecision decideAddress(const IpAddress& address, std::string_view written, uint16_t port) const;

    std::vector<HostPattern> patterns_;
};

}  // namespace moat
