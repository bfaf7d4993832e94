// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "probe/check.h"

#include <string>
#include <vector>

namespace moat::cli {

// `moat probe` without --host: starts a fresh sandbox with `moat run` (the
// same path a user's session takes: through moatd when it is there) whose
// workspace is an empty temporary directory holding a copy of moat-probe,
// runs the checks inside as the agent would, and returns them. runFlags are
// added to `moat run` (a deliberately weakened sandbox: --net open, --sudo).
// The temporary directory is removed whatever happens; an interrupt is passed
// on to the sandbox and waited for.
struct SandboxProbeResult {
    probe::Checks checks;
    int interruptedBy = 0;  // a signal that stopped the probe, else 0
};

Result<SandboxProbeResult> probeInFreshSandbox(const std::vector<std::string>& runFlags);

}  // namespace moat::cli
