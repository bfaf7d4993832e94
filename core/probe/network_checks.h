// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <string>
#include <vector>

namespace moat::probe {

// Criteria 4 and 5 of docs/probe.md, answered without a packet leaving the
// machine: the routing tables are read, and a UDP socket is connect()ed,
// which makes the kernel pick a route and a source address but sends nothing.

// default_route: /proc/net/route and /proc/net/ipv6_route hold no default
// route (other than an unreachable one).
Check defaultRoute();
// public_route: no route to a public IPv4 (1.1.1.1) or IPv6 (2606:4700:4700::1111)
// address, i.e. raw IPs are not reachable directly.
Check publicRoute();
// dns_direct: every nameserver of /etc/resolv.conf is loopback, or has no route.
Check directDns();
// metadata_route: no route to the cloud metadata address 169.254.169.254.
Check metadataRoute();

// The nameserver addresses of a resolv.conf text, in order.
std::vector<std::string> nameservers(const std::string& resolvConf);

}  // namespace moat::probe
