// SPDX-License-Identifier: Apache-2.0
#include "supervisor_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <iostream>
#include <vector>

#ifndef MOAT_LIBEXECDIR
#define MOAT_LIBEXECDIR "/usr/local/libexec/moat"
#endif

namespace moat::cli {

namespace {

volatile sig_atomic_t g_child = 0;

void forwardToSupervisor(int sig)
{
    if (g_child > 0) {
        ::kill(g_child, sig);
    }
}

}  // namespace

std::string supervisorPath()
{
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        std::string dir(self, static_cast<size_t>(n));
        dir = dir.substr(0, dir.find_last_of('/'));
        const std::string sibling = dir + "/moat-supervisor";
        if (::access(sibling.c_str(), X_OK) == 0) {
            return sibling;
        }
    }
    return std::string(MOAT_LIBEXECDIR) + "/moat-supervisor";
}

int runSupervisor(const std::string& specJson, const std::string& jsonEventsPath, int verbosity)
{
    const std::string binary = supervisorPath();
    if (::access(binary.c_str(), X_OK) != 0) {
        std::cerr << "moat: cannot find moat-supervisor at " << binary
                  << ". Reinstall moat, or run the moat binary from its build directory\n";
        return 125;
    }
    int specPipe[2];
    if (::pipe2(specPipe, O_CLOEXEC) != 0) {
        std::cerr << "moat: cannot create a pipe: " << std::strerror(errno) << "\n";
        return 125;
    }
    const pid_t parent = ::getpid();
    // Ignored while the session runs: a Ctrl-C on a non-pty session reaches
    // the supervisor too, which forwards it to the command.
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGQUIT, SIG_IGN);
    const pid_t child = ::fork();
    if (child < 0) {
        std::cerr << "moat: cannot start moat-supervisor: " << std::strerror(errno) << "\n";
        return 125;
    }
    if (child == 0) {
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGQUIT, SIG_DFL);
        ::close(specPipe[1]);
        std::vector<std::string> args = {binary, "--spec-fd", std::to_string(specPipe[0]), "--parent-pid",
                                         std::to_string(parent)};
        if (!jsonEventsPath.empty()) {
            args.insert(args.end(), {"--json-events", jsonEventsPath});
        }
        for (int i = 0; i < verbosity; ++i) {
            args.emplace_back("-v");
        }
        std::vector<char*> argv;
        for (auto& arg : args) {
            argv.push_back(arg.data());
        }
        argv.push_back(nullptr);
        ::fcntl(specPipe[0], F_SETFD, 0);
        ::execv(binary.c_str(), argv.data());
        std::cerr << "moat: cannot execute " << binary << ": " << std::strerror(errno) << "\n";
        ::_exit(125);
    }
    g_child = child;
    struct sigaction forward {};
    forward.sa_handler = forwardToSupervisor;
    sigemptyset(&forward.sa_mask);
    ::sigaction(SIGTERM, &forward, nullptr);
    ::sigaction(SIGHUP, &forward, nullptr);

    ::close(specPipe[0]);
    ::signal(SIGPIPE, SIG_IGN);
    size_t done = 0;
    while (done < specJson.size()) {
        const ssize_t n = ::write(specPipe[1], specJson.data() + done, specJson.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        done += static_cast<size_t>(n);
    }
    ::close(specPipe[1]);

    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            std::cerr << "moat: lost track of moat-supervisor: " << std::strerror(errno) << "\n";
            return 125;
        }
    }
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    std::cerr << "moat: moat-supervisor died of signal " << WTERMSIG(status)
              << " (" << strsignal(WTERMSIG(status)) << "); the sandbox went with it\n";
    return 125;
}

}  // namespace moat::cli
