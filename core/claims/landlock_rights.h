// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace moat::claims {

// What a default sandbox's Landlock domain handles at a given ABI, in the
// kernel's own names (LANDLOCK_ACCESS_FS_READ_FILE -> "read_file"). Derived
// from LandlockPolicy::fsRightsForAbi(), so that the claim follows the code
// that enforces it rather than a copy of it.
struct LandlockRights {
    int abi = -1;  // the ABI moat uses: -1 when the kernel has none
    std::vector<std::string> fs;      // handled file system rights
    std::vector<std::string> net;     // handled TCP rights ("bind_tcp", "connect_tcp"), ABI >= 4
    std::vector<std::string> scopes;  // "abstract_unix_socket", "signal", ABI >= 6
};

// The highest ABI whose features moat uses (LandlockPolicy::apply): later ABIs
// add nothing a sandbox's domain handles, so their kernels get ABI 6's domain.
inline constexpr int kHighestHandledAbi = 6;

// The ABI moat uses on a kernel offering `kernelAbi` (-1: none).
int abiInUse(int kernelAbi);

// The names of the file system rights in `rights`, lowest bit first; a bit
// without a name shows as "bit N" (a right added to moat without a name here).
std::vector<std::string> fsRightNames(uint64_t rights);

// What a default sandbox handles at `abi` (the ABI in use, not capped here).
LandlockRights defaultSandboxRights(int abi);

}  // namespace moat::claims
