// SPDX-License-Identifier: Apache-2.0
#include "attached_session.h"

#include "approval_notice.h"
#include "session_directory.h"

#include <nlohmann/json.hpp>

#include <poll.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace moat::cli {

namespace {

constexpr int kForwardedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH};
// How long a session moatd left behind may take to write its status.json.
constexpr auto kStatusWait = std::chrono::seconds(10);

int pidfdOpen(int pid)
{
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

}  // namespace

AttachedSession::SignalBlock::SignalBlock()
{
    sigemptyset(&set_);
    for (int sig : kForwardedSignals) {
        sigaddset(&set_, sig);
    }
    ::pthread_sigmask(SIG_BLOCK, &set_, &previous_);
}

AttachedSession::SignalBlock::~SignalBlock()
{
    ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

AttachedSession::AttachedSession(UniqueFd link, std::string sessionId, MoatPaths paths, const SignalBlock& signals)
    : link_(std::move(link)),
      signalFd_(::signalfd(-1, &signals.set(), SFD_CLOEXEC)),
      sessionId_(std::move(sessionId)),
      paths_(std::move(paths))
{
}

void AttachedSession::say(const std::string& text) const
{
    // The terminal may be raw (the supervisor holds it): end lines with CR LF.
    const std::string line = "moat: " + text + (::isatty(STDERR_FILENO) ? "\r\n" : "\n");
    (void)!::write(STDERR_FILENO, line.data(), line.size());
}

int AttachedSession::run()
{
    std::string pending;
    char buffer[4096];
    while (link_) {
        pollfd fds[2] = {{link_.get(), POLLIN, 0}, {signalFd_.get(), POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            say(std::string("cannot wait for the session: ") + std::strerror(errno));
            return 125;
        }
        if (fds[1].revents & POLLIN) {
            signalfd_siginfo info{};
            if (::read(signalFd_.get(), &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
                forwardSignal(static_cast<int>(info.ssi_signo));
            }
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::read(link_.get(), buffer, sizeof buffer);
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
                continue;
            }
            if (n <= 0) {
                link_.reset();  // moatd is gone; the session may not be
                break;
            }
            pending.append(buffer, static_cast<size_t>(n));
            size_t start = 0;
            for (size_t newline; (newline = pending.find('\n', start)) != std::string::npos; start = newline + 1) {
                int exitCode = 0;
                if (handleLine(pending.substr(start, newline - start), &exitCode)) {
                    return exitCode;
                }
            }
            pending.erase(0, start);
        }
    }
    return waitForSupervisor();
}

bool AttachedSession::handleLine(const std::string& line, int* exitCode)
{
    // moatd is trusted (it runs as this user); still, a line that does not
    // parse is skipped rather than guessed at.
    const auto message = nlohmann::json::parse(line, nullptr, false);
    if (!message.is_object() || !message.contains("t") || !message["t"].is_string()) {
        return false;
    }
    const std::string type = message["t"].get<std::string>();
    if (type == "started") {
        supervisorPid_ = message.value("supervisor_pid", 0);
        sessionId_ = message.value("session", sessionId_);
    } else if (type == "successor") {
        const std::string next = message.value("session", std::string());
        const std::string parent = message.value("parent", sessionId_);
        std::string request = message.value("request", std::string());
        if (request.empty()) {
            if (auto entry = SessionDirectory(paths_).read(next); entry) {
                request = entry->spec.value("request", std::string());
            }
        }
        say("session " + parent + " continues as " + next + " (approved request " +
            (request.empty() ? std::string("?") : request) + ")");
        sessionId_ = next;
        supervisorPid_ = 0;
    } else if (type == "approval" && message.contains("request") && message["request"].is_object()) {
        say(approvalNotice(message["request"]));
    } else if (type == "ended") {
        *exitCode = message.value("exit_code", 125);
        return true;
    }
    return false;
}

void AttachedSession::forwardSignal(int sig)
{
    // SIGWINCH goes to the supervisor itself: it holds the terminal and
    // copies its size to the sandbox's pty on its own SIGWINCH (the link's
    // "signal" is for the sandbox's command). Everything else through moatd.
    if (link_ && sig != SIGWINCH) {
        const std::string line = nlohmann::json{{"t", "signal"}, {"signal", sig}}.dump() + "\n";
        if (::send(link_.get(), line.data(), line.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(line.size())) {
            return;
        }
    }
    // Without moatd, straight to the supervisor, which forwards it as it
    // does its own.
    if (supervisorPid_ <= 0) {
        supervisorPid_ = supervisorPidFromStatus();
    }
    if (supervisorPid_ > 0 && isLiveSupervisor(supervisorPid_)) {
        ::kill(supervisorPid_, sig);
    }
}

int AttachedSession::supervisorPidFromStatus() const
{
    auto entry = SessionDirectory(paths_).read(sessionId_);
    return entry ? entry->status.value("supervisor_pid", 0) : 0;
}

int AttachedSession::waitForSupervisor()
{
    // moatd died: the supervisor keeps running the session (protocol.md).
    const auto deadline = std::chrono::steady_clock::now() + kStatusWait;
    while (supervisorPid_ <= 0 && std::chrono::steady_clock::now() < deadline) {
        supervisorPid_ = supervisorPidFromStatus();
        if (supervisorPid_ <= 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    UniqueFd pidfd(supervisorPid_ > 0 ? pidfdOpen(supervisorPid_) : -1);
    // A pidfd of a reused pid would wait on a stranger: check it is still
    // a moat-supervisor after opening it.
    if (pidfd && isLiveSupervisor(supervisorPid_)) {
        for (;;) {
            pollfd fds[2] = {{pidfd.get(), POLLIN, 0}, {signalFd_.get(), POLLIN, 0}};
            if (::poll(fds, 2, -1) < 0 && errno != EINTR) {
                break;
            }
            if (fds[1].revents & POLLIN) {
                signalfd_siginfo info{};
                if (::read(signalFd_.get(), &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
                    forwardSignal(static_cast<int>(info.ssi_signo));
                }
            }
            if (fds[0].revents & POLLIN) {
                break;
            }
        }
    }
    auto entry = SessionDirectory(paths_).read(sessionId_);
    if (entry && entry->status.contains("exit_code") && entry->status["exit_code"].is_number_integer() &&
        entry->status.value("state", std::string()) != "running") {
        return entry->status["exit_code"].get<int>();
    }
    say("lost moatd while session " + sessionId_ +
        " ran, and its supervisor ended without recording how the session ended; see 'moat logs " + sessionId_ +
        "'");
    return 125;
}

}  // namespace moat::cli
