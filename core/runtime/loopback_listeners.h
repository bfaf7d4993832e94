// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"

#include <cstdint>

namespace moat {

// Sockets created by sandbox init inside the sandbox's network namespace, on
// its loopback, and handed to the supervisor: the agent reaches them like any
// local server, but the far end is served from outside, where the agent has
// no reach. Binding ports below 1024 needs CAP_NET_BIND_SERVICE in the
// namespace's owner, which init holds until it confines itself.
Result<UniqueFd> bindLoopbackUdp(uint16_t port);
Result<UniqueFd> listenLoopbackTcp(uint16_t port, int backlog = 128);

}  // namespace moat
