// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/moat_paths.h"
#include "base/unique_fd.h"
#include "policy/sandbox_spec.h"
#include "runtime/agent_identity.h"
#include "runtime/kernel_support.h"
#include "runtime/sandbox_init.h"

#include <vector>

namespace moat {

struct StdioMode {
    bool stdinTty = false;
    bool stdoutTty = false;
    bool stderrTty = false;
    int userTerminalFd = -1;  // the user's terminal, whose settings the agent's pty starts with
};

// What sandbox init will do, worked out by the supervisor before the clone:
// the mounts (as root, with their idmapped copies already made), the Landlock
// and seccomp policy, the command's environment and terminal. The pipes are
// the launcher's.
struct InitPlan {
    InitConfig config;
    std::vector<UniqueFd> preparedTrees;  // referenced by config.rootfs.binds[].preparedTreeFd
};

Result<InitPlan> planSandboxInit(const SandboxSpec& spec, const MoatPaths& paths, const AgentIdentity& id,
                                 const KernelSupport& kernel, const StdioMode& stdio);

}  // namespace moat
