// SPDX-License-Identifier: Apache-2.0
#include "runtime/command_exec.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

extern char** environ;

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

// Runs in the forked child only; reports failure through `errorPipe`.
[[noreturn]] void execChild(const InitConfig& config, const AgentTerminal& terminal, int errorPipe)
{
    auto die = [errorPipe](int err) {
        (void)::write(errorPipe, &err, sizeof err);
        ::_exit(127);
    };
    int slave = -1;
    if (!terminal.slavePath.empty()) {
        // Init leads the terminal's session; the command is its foreground
        // process group. Not being an orphaned group is what lets Ctrl-Z
        // stop it (the kernel discards terminal stop signals to orphans).
        slave = ::open(terminal.slavePath.c_str(), O_RDWR | O_NOCTTY);
        if (slave < 0 || ::setpgid(0, 0) != 0) {
            die(errno);
        }
        ::signal(SIGTTOU, SIG_IGN);
        if (::tcsetpgrp(slave, ::getpid()) != 0) {
            die(errno);
        }
        ::signal(SIGTTOU, SIG_DFL);
    } else if (::setsid() < 0) {
        die(errno);
    }
    const int sources[3] = {config.stdinTty ? slave : config.stdinFd, config.stdoutTty ? slave : config.stdoutFd,
                            config.stderrTty ? slave : config.stderrFd};
    for (int target = 0; target < 3; ++target) {
        if (sources[target] < 0 || ::dup2(sources[target], target) < 0) {
            die(errno ? errno : EBADF);
        }
    }
    if (::chdir(config.workingDirectory.c_str()) != 0) {
        die(errno);
    }
    std::vector<char*> argv;
    for (const auto& arg : config.command) {
        argv.push_back(const_cast<char*>(arg.c_str()));
    }
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (const auto& var : config.environment) {
        envp.push_back(const_cast<char*>(var.c_str()));
    }
    envp.push_back(nullptr);
    // execvp searches the PATH of the environment it runs in: the sandbox's.
    environ = envp.data();
    ::execvp(argv[0], argv.data());
    die(errno);
    ::_exit(127);
}

}  // namespace

Result<pid_t> startCommand(const InitConfig& config, const AgentTerminal& terminal, const sigset_t& blocked)
{
    int errorPipe[2];
    if (::pipe2(errorPipe, O_CLOEXEC) != 0) {
        return Error::fromErrno("cannot create a pipe", errno);
    }
    UniqueFd readEnd(errorPipe[0]);
    UniqueFd writeEnd(errorPipe[1]);
    const pid_t pid = ::fork();
    if (pid < 0) {
        return Error::fromErrno("cannot start the command", errno);
    }
    if (pid == 0) {
        readEnd.reset();
        for (int sig = 1; sig < NSIG; ++sig) {
            ::signal(sig, SIG_DFL);
        }
        sigprocmask(SIG_UNBLOCK, &blocked, nullptr);
        execChild(config, terminal, writeEnd.get());
    }
    writeEnd.reset();
    int err = 0;
    ssize_t n;
    do {
        n = ::read(readEnd.get(), &err, sizeof err);
    } while (n < 0 && errno == EINTR);
    if (n == sizeof err) {
        int status;
        ::waitpid(pid, &status, 0);
        return Error::fromErrno("cannot execute " + config.command.front(), err);
    }
    return pid;
}

}  // namespace moat
