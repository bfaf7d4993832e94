// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <cstdint>
#include <string>

namespace moat::probe {

// Egress as the sandbox's own edge answers it. Only moat's proxy and DNS stub
// are asked, and only when they listen on this sandbox's loopback: a proxy
// elsewhere would carry the question off the machine. A refused CONNECT never
// leaves the proxy; an allowed one is closed before a byte is sent through it.

// proxy_refuses_<what>: CONNECT host:port through $HTTPS_PROXY is answered 403.
Check proxyRefuses(const std::string& name, const std::string& host, uint16_t port);

// dns_stub_refuses: a query for example.com to the loopback nameserver of
// /etc/resolv.conf, under moat's proxy, is answered NXDOMAIN.
Check dnsStubRefuses();

// The loopback port of moat's proxy from $HTTPS_PROXY (http://127.0.0.1:PORT),
// 0 when the variable names anything else.
uint16_t loopbackProxyPort(const std::string& proxyUrl);

}  // namespace moat::probe
