// SPDX-License-Identifier: Apache-2.0
#include "attach_client.h"

#include "attach_protocol.h"
#include "base/unique_fd.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

namespace moat::gui {

namespace {

constexpr int kMoatFailed = 125;

// Written by the signal handlers, read by the loop (self-pipe).
int signalPipe[2] = {-1, -1};

extern "C" void onSignal(int number)
{
    const int saved = errno;
    const auto byte = static_cast<unsigned char>(number);
    [[maybe_unused]] const ssize_t ignored = ::write(signalPipe[1], &byte, 1);
    errno = saved;
}

// The user's terminal in raw mode for as long as this lives.
class RawMode
{
public:
    explicit RawMode(int fd) : fd_(fd)
    {
        if (::isatty(fd) == 0 || ::tcgetattr(fd, &saved_) != 0) {
            return;
        }
        termios raw = saved_;
        ::cfmakeraw(&raw);
        active_ = ::tcsetattr(fd, TCSAFLUSH, &raw) == 0;
    }
    ~RawMode() { restore(); }
    RawMode(const RawMode&) = delete;
    RawMode& operator=(const RawMode&) = delete;

    void restore()
    {
        if (active_) {
            ::tcsetattr(fd_, TCSAFLUSH, &saved_);
            active_ = false;
        }
    }

private:
    int fd_;
    termios saved_{};
    bool active_ = false;
};

bool writeAll(int fd, const char* bytes, std::size_t size)
{
    while (size > 0) {
        const ssize_t wrote = ::write(fd, bytes, size);
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            return false;
        }
        bytes += wrote;
        size -= static_cast<std::size_t>(wrote);
    }
    return true;
}

bool writeAll(int fd, const std::string& bytes)
{
    return writeAll(fd, bytes.data(), bytes.size());
}

void note(const std::string& text)
{
    writeAll(STDERR_FILENO, text + "\n");
}

std::optional<std::string> windowSizeFrame()
{
    winsize size{};
    if (::ioctl(STDIN_FILENO, TIOCGWINSZ, &size) != 0 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) {
        return std::nullopt;
    }
    if (size.ws_row == 0 || size.ws_col == 0) {
        return std::nullopt;
    }
    return attach::encodeWindowSize(size.ws_row, size.ws_col);
}

int connectTo(const char* path)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (std::strlen(path) >= sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    std::strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        const int saved = errno;
        ::close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

// Relays until the app says how it ends; returns the exit status.
int relay(int socket, RawMode* raw)
{
    attach::FrameReader reader;
    bool stdinOpen = true;
    std::array<char, 16384> buffer{};
    const auto finish = [raw](const std::string& message, int status) {
        raw->restore();
        note(message);
        return status;
    };
    for (;;) {
        pollfd fds[3] = {{signalPipe[0], POLLIN, 0}, {socket, POLLIN, 0}, {stdinOpen ? STDIN_FILENO : -1, POLLIN, 0}};
        if (::poll(fds, 3, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return finish(std::string("moat-manager --attach: poll failed: ") + std::strerror(errno), kMoatFailed);
        }
        // Signals first: a resize is sent before the keys typed after it.
        if ((fds[0].revents & POLLIN) != 0) {
            unsigned char number = 0;
            while (::read(signalPipe[0], &number, 1) == 1) {
                if (number == SIGWINCH) {
                    if (const auto frame = windowSizeFrame()) {
                        writeAll(socket, *frame);
                    }
                    continue;
                }
                raw->restore();
                return 128 + number;
            }
        }
        if ((fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            const ssize_t got = ::read(socket, buffer.data(), buffer.size());
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                return finish("\r\n[moat: moat-manager closed the connection to this session (it quit or stopped "
                              "sharing the terminal)]",
                              kMoatFailed);
            }
            reader.feed(buffer.data(), static_cast<std::size_t>(got));
            while (const std::optional<attach::Frame> frame = reader.next()) {
                switch (frame->type) {
                case attach::FrameType::Data:
                    writeAll(STDOUT_FILENO, frame->payload);
                    break;
                case attach::FrameType::Ended: {
                    const int status = attach::decodeEnded(frame->payload).value_or(kMoatFailed);
                    return finish("\r\n[moat: the session ended with status " + std::to_string(status) + "]", status);
                }
                case attach::FrameType::Refused:
                    return finish("moat-manager --attach: " + frame->payload, kMoatFailed);
                case attach::FrameType::TakenOver:
                    return finish("\r\n[moat: " + frame->payload + "]", 0);
                case attach::FrameType::WindowSize:
                    break;  // only clients send it
                }
            }
            if (reader.broken()) {
                return finish("moat-manager --attach: the socket does not speak moat-manager's terminal protocol",
                              kMoatFailed);
            }
        }
        if (stdinOpen && (fds[2].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            const ssize_t got = ::read(STDIN_FILENO, buffer.data(), buffer.size());
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                stdinOpen = false;  // nothing more to type; the output goes on
                continue;
            }
            if (!writeAll(socket, attach::encode(attach::FrameType::Data,
                                                 std::string_view(buffer.data(), static_cast<std::size_t>(got))))) {
                return finish("\r\n[moat: moat-manager closed the connection to this session]", kMoatFailed);
            }
        }
    }
}

}  // namespace

int runAttachClient(const char* socketPath)
{
    ::signal(SIGPIPE, SIG_IGN);
    const UniqueFd socket(connectTo(socketPath));
    if (socket.get() < 0) {
        note(std::string("moat-manager --attach: cannot connect to ") + socketPath + ": " + std::strerror(errno) +
             ". The session may have ended or moat-manager quit; open the session in moat-manager and press "
             "\"Open in terminal\" again.");
        return kMoatFailed;
    }
    if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        note(std::string("moat-manager --attach: cannot make a pipe: ") + std::strerror(errno));
        return kMoatFailed;
    }
    struct sigaction action{};
    action.sa_handler = onSignal;
    ::sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int number : {SIGINT, SIGTERM, SIGHUP, SIGWINCH}) {
        ::sigaction(number, &action, nullptr);
    }
    RawMode raw(STDIN_FILENO);
    if (const auto frame = windowSizeFrame()) {
        writeAll(socket.get(), *frame);
    }
    return relay(socket.get(), &raw);
}

}  // namespace moat::gui
