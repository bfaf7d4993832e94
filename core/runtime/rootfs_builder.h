// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"
#include "runtime/agent_identity.h"

#include <string>
#include <vector>

namespace moat {

// One host path shown inside the sandbox at `target`.
struct BindRequest {
    std::string source;
    std::string target;
    bool readOnly = true;
    bool isDirectory = true;
    // Root mode: a detached, idmapped copy prepared by the supervisor (see
    // IdmappedMounts); -1 means "copy `source` from inside the new namespace".
    int preparedTreeFd = -1;
};

struct RootfsPlan {
    AgentIdentity identity;
    std::string hostname;
    std::string imageRoot = "/";  // "/" for --image host
    bool hostImage = true;
    bool yolo = false;
    std::string shell = "/bin/sh";
    std::vector<BindRequest> binds;  // home, workspace, --ro, --rw
    // The session's interception CA certificate (PEM), when the proxy sees
    // inside some host's TLS: added to the sandbox's trust (session_trust.h).
    std::string sessionCaPem;
};

// Builds the sandbox's file system view and makes it the root. Runs in
// sandbox init, in a fresh mount namespace owned by the sandbox's user
// namespace, in three steps that must stay in this order:
//   openSources()  while still holding the invoker's file access (before the
//                  uid switch), so it can open what the agent may not;
//   build()        after the uid switch, so new files get a mapped owner;
//                  ends with pivot_root into a fresh tmpfs, the host tree
//                  detached, and "/" read-only.
class RootfsBuilder {
public:
    explicit RootfsBuilder(RootfsPlan plan);

    Status openSources();
    Status build();

private:
    struct SystemEntry {
        std::string name;
        std::string linkTarget;  // non-empty: recreate as a symlink
        UniqueFd fd;
    };
    struct DeviceNode {
        std::string name;
        UniqueFd fd;
    };

    Status mountStage();
    Status bindSystemEntries();
    Status populateEtc();
    Status installSessionTrust();
    Status mountDev();
    Status mountProcAndSys();
    Status mountTmp();
    Status bindUserPaths();
    Status pivot();

    RootfsPlan plan_;
    std::vector<SystemEntry> system_;
    std::vector<DeviceNode> devices_;
    std::vector<UniqueFd> bindSources_;  // parallel to plan_.binds
    UniqueFd etcSource_;
    UniqueFd cpuSysfs_;
    UniqueFd stage_;
};

}  // namespace moat
