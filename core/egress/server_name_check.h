// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/splice_tunnel.h"

#include <cstdint>
#include <string>

namespace moat {

// The check a tunnel to host:port runs on the client's first bytes: when they
// are a TLS ClientHello, its server name (if any) must name host. A fronted
// request (allowed front in the tunnel request, another host in the SNI) is
// refused before the upstream sees it; a ClientHello that cannot be read is
// refused too. Anything that is not TLS passes: it names no server, and the
// destination was fixed when the tunnel was opened.
FirstBytesCheck serverNameCheck(std::string host, std::uint16_t port);

}  // namespace moat
