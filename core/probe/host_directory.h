// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <cstdint>
#include <optional>
#include <string>

namespace moat::probe {

// A directory of the host, named so that a probe inside a sandbox can tell
// whether it reaches the very same directory, at its own path or anywhere
// else: a path alone would not do, since the sandbox may show a different
// directory there (the agent's HOME is moat's, at the path of the real one).
struct HostDirectory {
    std::string path;          // as the host names it (absolute, canonical)
    uint32_t major = 0, minor = 0;  // the file system's device, as mountinfo prints it
    uint64_t inode = 0;
    std::string pathInFileSystem;  // path below the root of its file system; "" when unknown

    // Outside: the nearest existing directory at or above path (a records
    // directory not made yet is reached through its parent or not at all).
    static std::optional<HostDirectory> identify(const std::string& path);
};

// Inside: whether this process can reach the host directory, at its own path
// or through any mount of the same file system whose root contains it.
// ok when it is nowhere to be found; value 2 when writable, 1 when readable.
Check hostDirectoryReach(const std::string& name, const HostDirectory& directory);

}  // namespace moat::probe
