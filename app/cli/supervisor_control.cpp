// SPDX-License-Identifier: Apache-2.0
#include "supervisor_control.h"

#include "base/unique_fd.h"

#include <poll.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace moat::cli {

namespace {

using Clock = std::chrono::steady_clock;

// One line from `fd` before `deadline`; `pending` keeps what follows it.
Result<std::string> readLine(int fd, std::string& pending, Clock::time_point deadline)
{
    for (;;) {
        if (const size_t newline = pending.find('\n'); newline != std::string::npos) {
            std::string line = pending.substr(0, newline);
            pending.erase(0, newline + 1);
            return line;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            return Error{"the session's supervisor did not answer in time", ETIMEDOUT};
        }
        pollfd waited{fd, POLLIN, 0};
        if (::poll(&waited, 1, static_cast<int>(left)) < 0 && errno != EINTR) {
            return Error::fromErrno("cannot wait for the session's supervisor", errno);
        }
        char buffer[4096];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n == 0) {
            return Error{"the session's supervisor closed the connection", EPIPE,
                         "It accepts one parent at a time: if moatd runs, use it (moat stop and moat renew do, "
                         "when it is on the session bus)"};
        }
        if (n < 0 && errno != EINTR && errno != EAGAIN) {
            return Error::fromErrno("cannot read from the session's supervisor", errno);
        }
        if (n > 0) {
            pending.append(buffer, static_cast<size_t>(n));
        }
    }
}

}  // namespace

nlohmann::json SupervisorControl::caller()
{
    const uid_t uid = ::getuid();
    std::string user = std::to_string(uid);
    passwd entry{};
    passwd* found = nullptr;
    char buffer[4096];
    if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found) {
        user = found->pw_name;
    }
    return {{"uid", uid}, {"user", user}, {"client", "cli"}};
}

Result<nlohmann::json> SupervisorControl::ask(const MoatPaths& paths, const std::string& sessionId,
                                              const nlohmann::json& message, const std::string& awaited,
                                              std::chrono::milliseconds timeout)
{
    const std::string path = paths.supervisorSocket(sessionId);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path) {
        return Error{"the supervisor's socket path " + path + " is too long", ENAMETOOLONG,
                     "Point MOAT_RUNTIME_DIR at a shorter directory"};
    }
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd || ::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        return Error::fromErrno("cannot reach the supervisor of session " + sessionId + " at " + path, errno,
                                "Is the session still running? See 'moat ps'");
    }
    const auto deadline = Clock::now() + timeout;
    std::string pending;
    auto hello = readLine(fd.get(), pending, deadline);
    if (!hello) {
        return hello.error();
    }
    const std::string line = message.dump() + "\n";
    if (::send(fd.get(), line.data(), line.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(line.size())) {
        return Error::fromErrno("cannot write to the supervisor of session " + sessionId, errno);
    }
    for (;;) {
        auto answer = readLine(fd.get(), pending, deadline);
        if (!answer) {
            return answer.error();
        }
        auto json = nlohmann::json::parse(answer.value(), nullptr, false);
        if (json.is_object() && json.value("t", std::string()) == awaited) {
            return json;
        }
    }
}

}  // namespace moat::cli
