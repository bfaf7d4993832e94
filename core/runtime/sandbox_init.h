// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "runtime/init_channel.h"
#include "runtime/landlock_policy.h"
#include "runtime/rootfs_builder.h"
#include "runtime/seccomp_policy.h"

#include <sys/ioctl.h>
#include <termios.h>

#include <optional>
#include <string>
#include <vector>

namespace moat {

// What sandbox init needs; built by SandboxLauncher before the clone.
struct InitConfig {
    RootfsPlan rootfs;
    LandlockPlan landlock;
    SeccompOptions seccomp;
    int landlockAbi = -1;           // -1: run without (only with --allow-degraded=landlock)
    bool useSeccomp = true;         // false only with --allow-degraded=seccomp
    bool keepNamespaceCaps = false; // --sudo: capabilities inside its own user namespace
    bool newNetwork = true;         // bring up lo of the private network namespace
    // --net proxy: make the egress servers' sockets on the sandbox's loopback
    // (policy/egress_endpoints.h: DNS on UDP and TCP 53, the HTTP proxy on
    // 3128, SOCKS5 on 1080) and hand them to the supervisor, which serves them.
    bool egressListeners = false;

    std::vector<std::string> command;
    std::vector<std::string> environment;  // NAME=VALUE
    std::string workingDirectory;

    // The user's terminal, copied to the agent's when it gets one.
    struct TerminalSettings {
        termios settings;
        winsize size;
    };
    std::optional<TerminalSettings> terminal;

    // Each stream is either the agent's pty (true) or the given pipe end.
    bool stdinTty = false, stdoutTty = false, stderrTty = false;
    int stdinFd = -1, stdoutFd = -1, stderrFd = -1;
};

// Body of pid 1 in the sandbox's pid namespace: builds and confines the
// sandbox, starts the command, reaps, forwards signals, and returns the
// command's exit status (128+N when a signal N ended it). Never returns to
// the caller's stack frames in a useful state: call _exit() with its result.
int runSandboxInit(const InitConfig& config, const InitChannel& channel);

}  // namespace moat
