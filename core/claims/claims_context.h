// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/moat_paths.h"

#include <string>

namespace moat::claims {

// What the claims depend on besides the build: the running kernel and where
// this user's moat keeps its state. A value, so that tests can ask what moat
// would promise on another kernel (no Landlock, ABI 1..6, no seccomp).
struct ClaimsContext {
    std::string kernelRelease;   // uname -r
    int landlockKernelAbi = -1;  // LandlockPolicy::kernelAbi(): -1 when absent
    bool seccomp = false;        // seccomp filters available
    MoatPaths paths;

    // This machine, read without changing anything: uname(2), the Landlock
    // and seccomp probes of KernelSupport, MoatPaths::fromEnvironment().
    static ClaimsContext current();
};

}  // namespace moat::claims
