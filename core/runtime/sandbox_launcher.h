// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/moat_paths.h"
#include "base/unique_fd.h"
#include "policy/sandbox_spec.h"
#include "runtime/agent_identity.h"
#include "runtime/init_channel.h"
#include "runtime/init_plan.h"

#include <sys/types.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace moat {

// A started sandbox, as its supervisor holds it: every fd that leads in or
// out of the sandbox is here, outside it.
struct Sandbox {
    pid_t initPid = -1;
    UniqueFd pidfd;
    InitChannel channel;
    UniqueFd ptyMaster;   // when any stream is a terminal
    UniqueFd stdinWrite;  // when stdin is not a terminal
    UniqueFd stdoutRead;  // when stdout is not a terminal
    UniqueFd stderrRead;  // when stderr is not a terminal
    std::map<std::string, UniqueFd> listeners;  // sockets inside the sandbox, served from outside
    AgentIdentity identity;
    nlohmann::json confinement;  // what init reported it enforced
    std::string hostname;
};

// Creates the sandbox for a spec (supervisor side): checks the kernel,
// prepares the agent's home and (as root) idmapped mounts, clones sandbox init
// into new user, mount, pid, net, ipc, uts, cgroup and time namespaces,
// writes its id maps, and waits until init reports the sandbox confined.
// Must be called while the process is single-threaded.
//
// `whileBuilding` runs in the caller once init is building the sandbox, so
// that the caller's own set-up (records) overlaps with it; if it fails, the
// sandbox is killed and its error returned.
struct LaunchOptions {
    // Ask init for the seccomp listener on which every execve and execveat
    // in the sandbox waits (Sandbox::listeners[kExecNotifyListener]) when the
    // kernel has it. launch() answers init's own exec of the command (the
    // spec says what it is); the caller must serve every later one from the
    // moment launch() returns, or the sandbox's execs wait forever.
    bool execNotify = false;
    // The session's interception CA (PEM) when the proxy sees inside some
    // host's TLS: the sandbox trusts it (session_trust.h). Empty: no change.
    std::string sessionCaPem;
    // More "NAME=VALUE" for the command (a secret's placeholder), replacing
    // any of the same name.
    std::vector<std::string> extraEnvironment;
};

class SandboxLauncher {
public:
    static Result<Sandbox> launch(const SandboxSpec& spec, const MoatPaths& paths, StdioMode stdio,
                                  const std::function<Status()>& whileBuilding, LaunchOptions options = {});
};

}  // namespace moat
