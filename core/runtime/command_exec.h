// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"
#include "runtime/sandbox_init.h"

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace moat {

// The agent's terminal, allocated from the sandbox's private devpts so that
// its name (/dev/pts/0) means something inside. The master goes to the
// supervisor; the slave is opened by the command as its controlling tty.
struct AgentTerminal {
    UniqueFd master;
    std::string slavePath;
    // Held by init for its whole life: the master reports a hang-up (EIO)
    // whenever no slave is open, which the relay would take for the end.
    UniqueFd slave;

    // Makes the pty the controlling terminal of the calling session leader
    // (sandbox init), so the command can be its foreground process group.
    Status becomeControllingTerminal();
};

// Allocates a pty when any of the command's streams is a terminal.
Result<AgentTerminal> openAgentTerminal(const InitConfig& config);

// Forks and executes the command in a new session: its streams wired to the
// pty or the pipes, its signal mask and handlers reset, `environment` as its
// whole environment. Returns the command's pid, or the exec errno (ENOENT
// when not found) once the child has failed to execute.
Result<pid_t> startCommand(const InitConfig& config, const AgentTerminal& terminal, const sigset_t& blocked);

}  // namespace moat
