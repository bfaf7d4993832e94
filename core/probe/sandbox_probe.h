// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"
#include "probe/sandbox_context.h"

namespace moat::probe {

// The checks of docs/probe.md as the agent sees them, run by moat-probe
// inside a fresh sandbox: the host's checks (kernel, privilege, network,
// secrets) plus those that compare with the host (context) or try what the
// sandbox's layers must refuse.
Checks runSandboxChecks(const SandboxContext& context);

}  // namespace moat::probe
