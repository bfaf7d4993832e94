// SPDX-License-Identifier: Apache-2.0
#include "runtime/command_exec.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

namespace moat {

Status AgentTerminal::becomeControllingTerminal()
{
    if (slavePath.empty()) {
        return {};
    }
    slave.reset(::open(slavePath.c_str(), O_RDWR | O_CLOEXEC));
    if (!slave || ::ioctl(slave.get(), TIOCSCTTY, 0) != 0) {
        return Error::fromErrno("cannot attach the sandbox's terminal", errno);
    }
    return {};
}

Result<AgentTerminal> openAgentTerminal(const InitConfig& config)
{
    AgentTerminal terminal;
    if (!(config.stdinTty || config.stdoutTty || config.stderrTty)) {
        return terminal;
    }
    terminal.master.reset(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
    if (!terminal.master) {
        return Error::fromErrno("cannot allocate a terminal in the sandbox", errno);
    }
    if (::grantpt(terminal.master.get()) != 0 || ::unlockpt(terminal.master.get()) != 0) {
        return Error::fromErrno("cannot unlock the sandbox's terminal", errno);
    }
    char name[64];
    if (::ptsname_r(terminal.master.get(), name, sizeof name) != 0) {
        return Error::fromErrno("cannot name the sandbox's terminal", errno);
    }
    terminal.slavePath = name;
    return terminal;
}

namespace {

// The command's program, found on the sandbox's PATH (from the command's own
// environment, not init's), as execvp would, before the child is started.
Result<std::string> resolveProgram(const std::string& program, const std::vector<std::string>& environment)
{
    if (program.find('/') != std::string::npos) {
        return program;
    }
    std::string path = "/usr/local/bin:/usr/bin:/bin";
    for (const auto& var : environment) {
        if (var.rfind("PATH=", 0) == 0) {
            path = var.substr(5);
        }
    }
    int firstError = ENOENT;
    size_t start = 0;
    while (start <= path.size()) {
        size_t colon = path.find(':', start);
        if (colon == std::string::npos) {
            colon = path.size();
        }
        const std::string dir = colon > start ? path.substr(start, colon - start) : ".";
        const std::string candidate = dir + "/" + program;
        struct stat info {};
        if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
            if (::access(candidate.c_str(), X_OK) == 0) {
                return candidate;
            }
            firstError = EACCES;
        }
        start = colon + 1;
    }
    return Error::fromErrno("cannot find " + program, firstError);
}

// The user's terminal settings and window size, on the agent's terminal
// before the command starts (a command reads them once, at start).
Status applyTerminalSettings(int slave, const InitConfig& config)
{
    if (slave < 0 || !config.terminal) {
        return {};
    }
    if (::tcsetattr(slave, TCSANOW, &config.terminal->settings) != 0 ||
        ::ioctl(slave, TIOCSWINSZ, &config.terminal->size) != 0) {
        return Error::fromErrno("cannot configure the sandbox's terminal", errno);
    }
    return {};
}

struct ExecPlan {
    std::string program;
    std::vector<char*> argv;
    std::vector<char*> shellArgv;  // for a script without #! (ENOEXEC), as execvp does
    std::vector<char*> envp;
    int stdio[3] = {-1, -1, -1};
    int slave = -1;
};

// Runs in the vfork()ed child, which shares init's memory until it execs:
// only system calls here, no allocation; failure is reported in `*error`.
[[noreturn]] void execChild(const ExecPlan& plan, const InitConfig& config, const sigset_t& blocked,
                            volatile int* error)
{
    auto die = [error](int err) {
        *error = err;
        ::_exit(127);
    };
    for (int sig = 1; sig < NSIG; ++sig) {
        ::signal(sig, SIG_DFL);
    }
    if (plan.slave >= 0) {
        // Init leads the terminal's session; the command is its foreground
        // process group. Not being an orphaned group is what lets Ctrl-Z
        // stop it (the kernel discards terminal stop signals to orphans).
        if (::setpgid(0, 0) != 0) {
            die(errno);
        }
        ::signal(SIGTTOU, SIG_IGN);
        if (::tcsetpgrp(plan.slave, ::getpid()) != 0) {
            die(errno);
        }
        ::signal(SIGTTOU, SIG_DFL);
    } else if (::setsid() < 0) {
        die(errno);
    }
    sigprocmask(SIG_UNBLOCK, &blocked, nullptr);
    for (int target = 0; target < 3; ++target) {
        if (plan.stdio[target] < 0 || ::dup2(plan.stdio[target], target) < 0) {
            die(plan.stdio[target] < 0 ? EBADF : errno);
        }
    }
    if (::chdir(config.workingDirectory.c_str()) != 0) {
        die(errno);
    }
    ::execve(plan.program.c_str(), plan.argv.data(), plan.envp.data());
    if (errno == ENOEXEC) {
        ::execve("/bin/sh", const_cast<char**>(plan.shellArgv.data()), plan.envp.data());
    }
    die(errno);
    ::_exit(127);
}

}  // namespace

Result<pid_t> startCommand(const InitConfig& config, const AgentTerminal& terminal, const sigset_t& blocked)
{
    ExecPlan plan;
    auto program = resolveProgram(config.command.front(), config.environment);
    if (!program) {
        return program.error();
    }
    plan.program = program.value();
    for (const auto& arg : config.command) {
        plan.argv.push_back(const_cast<char*>(arg.c_str()));
    }
    plan.argv.push_back(nullptr);
    plan.shellArgv.push_back(const_cast<char*>("sh"));
    plan.shellArgv.push_back(plan.program.data());
    for (size_t i = 1; i < config.command.size(); ++i) {
        plan.shellArgv.push_back(const_cast<char*>(config.command[i].c_str()));
    }
    plan.shellArgv.push_back(nullptr);
    for (const auto& var : config.environment) {
        plan.envp.push_back(const_cast<char*>(var.c_str()));
    }
    plan.envp.push_back(nullptr);

    UniqueFd slave;
    if (!terminal.slavePath.empty()) {
        slave.reset(::open(terminal.slavePath.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC));
        if (!slave) {
            return Error::fromErrno("cannot open the sandbox's terminal", errno);
        }
        plan.slave = slave.get();
    }
    if (auto applied = applyTerminalSettings(plan.slave, config); !applied) {
        return applied.error();
    }
    plan.stdio[0] = config.stdinTty ? plan.slave : config.stdinFd;
    plan.stdio[1] = config.stdoutTty ? plan.slave : config.stdoutFd;
    plan.stdio[2] = config.stderrTty ? plan.slave : config.stderrFd;

    // vfork: no copy of init's page tables, and the child's failure is known
    // as soon as vfork returns.
    volatile int childError = 0;
    const pid_t pid = ::vfork();
    if (pid < 0) {
        return Error::fromErrno("cannot start the command", errno);
    }
    if (pid == 0) {
        execChild(plan, config, blocked, &childError);
    }
    if (childError != 0) {
        int status;
        ::waitpid(pid, &status, 0);
        return Error::fromErrno("cannot execute " + config.command.front(), childError);
    }
    return pid;
}

}  // namespace moat
