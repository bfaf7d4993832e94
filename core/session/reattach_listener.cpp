// SPDX-License-Identifier: Apache-2.0
#include "session/reattach_listener.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>

namespace moat {

namespace asio = boost::asio;

namespace {

constexpr int kBacklog = 4;

// Opens `path` as a directory of ours with mode 0700, creating each missing
// level 0700. A symlink, or a directory of another user, is refused: the
// socket in it is the way to stop or widen nothing but this session, and
// no one else may be able to put or replace it.
Result<UniqueFd> openPrivateDirectory(const std::string& path)
{
    if (path.empty() || path.front() != '/') {
        return Error{"the supervisor socket's directory '" + path + "' is not an absolute path", EINVAL};
    }
    UniqueFd current(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    std::size_t start = 1;
    while (start <= path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string::npos) {
            end = path.size();
        }
        const std::string part = path.substr(start, end - start);
        start = end + 1;
        if (part.empty() || part == ".") {
            continue;
        }
        if (::mkdirat(current.get(), part.c_str(), 0700) != 0 && errno != EEXIST) {
            return Error::fromErrno("cannot create " + path, errno,
                                    "Check the permissions of MOAT_RUNTIME_DIR or XDG_RUNTIME_DIR");
        }
        UniqueFd next(::openat(current.get(), part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!next) {
            return Error::fromErrno("cannot open " + path, errno,
                                    errno == ENOTDIR || errno == ELOOP ? "A part of it is not a directory (or is a "
                                                                         "symlink): remove it"
                                                                       : "");
        }
        current = std::move(next);
    }
    struct stat info {};
    if (::fstat(current.get(), &info) != 0) {
        return Error::fromErrno("cannot inspect " + path, errno);
    }
    if (info.st_uid != ::geteuid()) {
        return Error{"the supervisor socket's directory " + path + " belongs to uid " + std::to_string(info.st_uid) +
                         ", not to you",
                     EPERM, "Remove it, or point MOAT_RUNTIME_DIR at a directory of yours"};
    }
    if ((info.st_mode & 077) != 0) {
        // Ours, but open to others: closed before a socket goes in.
        const std::string procPath = "/proc/self/fd/" + std::to_string(current.get());
        if (::chmod(procPath.c_str(), 0700) != 0) {
            return Error::fromErrno("cannot make " + path + " private (mode 0700)", errno);
        }
    }
    return current;
}

}  // namespace

ReattachListener::ReattachListener(asio::io_context& io) : io_(io) {}

ReattachListener::~ReattachListener()
{
    close();
}

Status ReattachListener::listen(const std::string& path, Accepted accepted)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos || slash + 1 >= path.size()) {
        return Error{"the supervisor socket path '" + path + "' names no file", EINVAL};
    }
    auto directory = openPrivateDirectory(path.substr(0, slash));
    if (!directory) {
        return directory.error();
    }
    const std::string name = path.substr(slash + 1);
    // Bound through the directory's fd: no symlink swapped in between
    // counts, and a long runtime directory does not hit sun_path's limit.
    const std::string viaFd = "/proc/self/fd/" + std::to_string(directory->get()) + "/" + name;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (viaFd.size() >= sizeof address.sun_path) {
        return Error{"the supervisor socket name '" + name + "' is too long", ENAMETOOLONG};
    }
    std::memcpy(address.sun_path, viaFd.c_str(), viaFd.size() + 1);

    UniqueFd socket(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!socket) {
        return Error::fromErrno("cannot create the supervisor socket", errno);
    }
    // A socket left by a supervisor of the same session that was killed.
    // Session ids are unique, so it is no one else's.
    (void)::unlinkat(directory->get(), name.c_str(), 0);
    const mode_t previous = ::umask(0177);
    const int bound = ::bind(socket.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address);
    const int bindErrno = errno;
    ::umask(previous);
    if (bound != 0) {
        return Error::fromErrno("cannot bind the supervisor socket " + path, bindErrno);
    }
    directory_ = std::move(directory.value());
    name_ = name;
    path_ = path;
    if (::fchmodat(directory_.get(), name.c_str(), 0600, 0) != 0 || ::listen(socket.get(), kBacklog) != 0) {
        const int err = errno;
        close();
        return Error::fromErrno("cannot listen on the supervisor socket " + path, err);
    }
    listener_.emplace(io_, socket.release());
    accepted_ = std::move(accepted);
    waitForConnection();
    return {};
}

void ReattachListener::waitForConnection()
{
    listener_->async_wait(asio::posix::descriptor_base::wait_read, [this](const boost::system::error_code& ec) {
        if (!ec) {
            acceptAll();
        }
    });
}

void ReattachListener::acceptAll()
{
    for (;;) {
        UniqueFd connection(::accept4(listener_->native_handle(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (!connection) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) {
                spdlog::warn("the supervisor socket cannot accept: {}", std::strerror(errno));
            }
            if (errno == EINTR || errno == ECONNABORTED) {
                continue;
            }
            break;
        }
        // The uid the peer had when it connected, from the kernel: the one
        // check that holds even for root, who passes the file modes.
        ucred peer{};
        socklen_t length = sizeof peer;
        if (::getsockopt(connection.get(), SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 || peer.uid != ::geteuid()) {
            spdlog::warn("refused a connection to the supervisor socket from uid {} (pid {})", peer.uid, peer.pid);
            refuse(std::move(connection),
                   "only uid " + std::to_string(::geteuid()) + " may talk to this session's supervisor");
            continue;
        }
        if (accepted_) {
            accepted_(std::move(connection));
        }
        if (!listener_) {
            return;  // closed by the handler
        }
    }
    waitForConnection();
}

void ReattachListener::refuse(UniqueFd connection, const std::string& reason)
{
    const std::string line = nlohmann::json{{"t", "refused"}, {"reason", reason}}.dump() + "\n";
    // Best effort, never blocking: the socket buffer of a new connection holds one line.
    (void)::send(connection.get(), line.data(), line.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
}

void ReattachListener::close()
{
    if (listener_) {
        boost::system::error_code ignored;
        listener_->close(ignored);
        listener_.reset();
    }
    if (directory_ && !name_.empty()) {
        (void)::unlinkat(directory_.get(), name_.c_str(), 0);
    }
    directory_.reset();
    name_.clear();
}

}  // namespace moat
