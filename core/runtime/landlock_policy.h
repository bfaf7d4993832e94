// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace moat {

// What the sandbox's Landlock domain allows, in paths as seen inside the new
// root. Everything not named here is denied for every right the kernel's ABI
// can express.
struct LandlockPlan {
    std::vector<std::string> readOnly;   // read and execute
    std::vector<std::string> readWrite;  // every right but creating device nodes
    std::vector<std::string> devices;    // read, write and ioctl on device files
    std::vector<std::string> procfs;     // read, execute and write (e.g. /proc/self/comm)
    bool restrictTcp = true;             // handle TCP bind/connect (ABI >= 4)
    std::vector<uint16_t> tcpConnectPorts;
};

// What was enforced, for the record and for `moat claims`.
struct LandlockReport {
    int abi = -1;
    uint64_t handledFs = 0;
    uint64_t handledNet = 0;
    uint64_t scoped = 0;
};

class LandlockPolicy {
public:
    // The running kernel's Landlock ABI version, or -1 when Landlock is
    // compiled out or not enabled at boot (errno-free: both mean "absent").
    static int kernelAbi();
    static constexpr int kMinimumAbi = 1;

    // Restricts the calling thread (and its future children) for good.
    // Requires no_new_privs or CAP_SYS_ADMIN in the thread's user namespace.
    static Result<LandlockReport> apply(const LandlockPlan& plan, int abi);

    static uint64_t fsRightsForAbi(int abi);
};

}  // namespace moat
