// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <string>

namespace moat::probe {

// Every check of docs/probe.md, run on this machine as the current user
// (`moat probe --host`). Reads only; the one process it starts (the user
// namespace check's child) exits before this returns.
Checks runHostChecks();

// The checks that mean the same on the host and inside a sandbox (kernel,
// process, privilege, network routes, secrets), for the home given.
Checks runCommonChecks(const std::string& home);

}  // namespace moat::probe
