// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace moat {

// Where a sandbox under --net proxy reaches moat's egress servers: sockets on
// the sandbox's own loopback, created by sandbox init inside the network
// namespace and served by the supervisor from outside it (the agent has no
// other way out). Init binds them, Landlock lets the agent connect to them,
// the command's environment points at them and the supervisor serves them:
// all four read these values, so that none can drift from the others.
inline constexpr char kEgressLoopbackAddress[] = "127.0.0.1";

inline constexpr uint16_t kDnsPort = 53;           // UDP and TCP: the DNS stub (resolv.conf's nameserver)
inline constexpr uint16_t kProxyHttpPort = 3128;   // HTTP proxy (CONNECT and absolute-form) and MOAT_API
inline constexpr uint16_t kProxySocksPort = 1080;  // SOCKS5 proxy

// Names of the listening sockets init hands to the supervisor ("listener"
// messages of InitChannel; the keys of Sandbox::listeners).
inline constexpr char kDnsUdpListener[] = "dns-udp";
inline constexpr char kDnsTcpListener[] = "dns-tcp";
inline constexpr char kProxyHttpListener[] = "proxy-http";
inline constexpr char kProxySocksListener[] = "proxy-socks";

}  // namespace moat
