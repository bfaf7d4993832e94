// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "probe/host_directory.h"

#include <map>
#include <optional>
#include <string>

namespace moat::probe {

// What the probe inside a sandbox cannot see for itself and `moat probe`,
// outside, tells it on the command line: the host's namespaces, where moat's
// records and checkpoints and the user's home really are, and the host's
// session bus (the keychain's way in). Nothing in it is secret: paths and
// inode numbers.
struct SandboxContext {
    std::map<std::string, uint64_t> hostNamespaces;  // "user" -> inode of /proc/self/ns/user
    std::optional<HostDirectory> records;
    std::optional<HostDirectory> checkpoints;
    std::optional<HostDirectory> realHome;
    std::string hostBus;     // a D-Bus address (unix:path=... or unix:abstract=...), "" when none
    std::string workspace;   // the probe sandbox's workspace, the one directory it may write besides its own

    // Outside, for this user: moat's directories, $HOME, the bus, the namespaces.
    static SandboxContext ofThisHost(const std::string& workspace);

    std::string toJson() const;
    // Strict: the inside trusts nothing it cannot parse, and says so.
    static Result<SandboxContext> fromJson(const std::string& text);
};

// The inode of each of this process's namespaces (user, mnt, pid, net, ipc,
// uts, cgroup, time) that the kernel has.
std::map<std::string, uint64_t> currentNamespaces();

}  // namespace moat::probe
