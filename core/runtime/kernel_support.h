// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "policy/sandbox_spec.h"

#include <string>
#include <vector>

namespace moat {

// Which confinement layers the running kernel can enforce, decided before a
// sandbox starts: moat refuses to start without a layer unless the user said
// --allow-degraded=LAYER (fail closed, ARCHITECTURE.md principle 2).
struct KernelSupport {
    int landlockAbi = -1;
    bool seccomp = false;
    // seccomp user notification, for exec records: not a confinement layer,
    // so a kernel without it only loses those records.
    bool execNotify = false;

    static KernelSupport probe();

    // Ok, or the error that explains what is missing and how to fix it.
    Status check(const SandboxSpec& spec) const;
};

}  // namespace moat
