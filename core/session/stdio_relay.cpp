// SPDX-License-Identifier: Apache-2.0
#include "session/stdio_relay.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace moat {

StdioRelay::StdioRelay() : wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

StdioRelay::~StdioRelay()
{
    finish(0);
}

void StdioRelay::add(Stream stream)
{
    if (stream.sandboxFd) {
        // Our own end: safe to make non-blocking.
        ::fcntl(stream.sandboxFd.get(), F_SETFL, ::fcntl(stream.sandboxFd.get(), F_GETFL) | O_NONBLOCK);
    }
    channels_.push_back(Channel{std::move(stream), {}, false});
}

void StdioRelay::start()
{
    thread_ = std::thread([this] { run(); });
}

bool StdioRelay::outputsEnded() const
{
    for (const auto& channel : channels_) {
        if (!channel.stream.toSandbox && !channel.ended) {
            return false;
        }
    }
    return true;
}

void StdioRelay::finish(int timeoutMs)
{
    if (!thread_.joinable()) {
        return;
    }
    {
        std::unique_lock lock(mutex_);
        finished_.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return done_.load(); });
    }
    stopping_ = true;
    wake();
    thread_.join();
}

void StdioRelay::wake()
{
    const uint64_t one = 1;
    (void)::write(wake_.get(), &one, sizeof one);
}

void StdioRelay::run()
{
    constexpr size_t kReadChunk = 65536;
    char buffer[kReadChunk];
    while (!stopping_ && !outputsEnded()) {
        const Interceptor::Hold hold = interceptor_ ? interceptor_->hold() : Interceptor::Hold{};
        std::vector<pollfd> fds;
        std::vector<Channel*> owners;
        fds.push_back({wake_.get(), POLLIN, 0});
        owners.push_back(nullptr);
        for (auto& channel : channels_) {
            if (channel.ended) {
                continue;
            }
            // While a question is on the user's terminal, the sandbox's new
            // output waits (it would write over the question); what was
            // read before is still written.
            if (hold.active && !channel.stream.toSandbox && channel.pending.empty()) {
                continue;
            }
            const int source = channel.stream.toSandbox ? channel.stream.userFd : channel.stream.sandboxFd.get();
            const int sink = channel.stream.toSandbox ? channel.stream.sandboxFd.get() : channel.stream.userFd;
            fds.push_back(channel.pending.empty() ? pollfd{source, POLLIN, 0} : pollfd{sink, POLLOUT, 0});
            owners.push_back(&channel);
        }
        if (::poll(fds.data(), fds.size(), hold.wakeInMs) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        if (fds[0].revents & POLLIN) {
            uint64_t count = 0;
            (void)::read(wake_.get(), &count, sizeof count);
        }
        for (size_t i = 1; i < fds.size(); ++i) {
            Channel& channel = *owners[i];
            const short revents = fds[i].revents;
            if (revents == 0) {
                continue;
            }
            const int source = channel.stream.toSandbox ? channel.stream.userFd : channel.stream.sandboxFd.get();
            const int sink = channel.stream.toSandbox ? channel.stream.sandboxFd.get() : channel.stream.userFd;
            if (channel.pending.empty()) {
                const ssize_t n = ::read(source, buffer, sizeof buffer);
                if (n > 0 && hold.active && channel.stream.toSandbox) {
                    // The user's answer to the question, not the agent's input.
                    interceptor_->input(buffer, static_cast<size_t>(n));
                } else if (n > 0) {
                    channel.pending.assign(buffer, static_cast<size_t>(n));
                } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
                    // EOF, or EIO from a pty master whose slaves are all closed.
                    channel.ended = true;
                    if (channel.stream.toSandbox && channel.stream.closeOnEof) {
                        channel.stream.sandboxFd.reset();
                    }
                }
            } else {
                const size_t chunk = channel.pending.size() < PIPE_BUF ? channel.pending.size() : PIPE_BUF;
                const ssize_t n = ::write(sink, channel.pending.data(), chunk);
                if (n > 0) {
                    channel.pending.erase(0, static_cast<size_t>(n));
                } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
                    // The reader went away (EPIPE): stop this direction so the
                    // writer on the other side sees it too.
                    channel.ended = true;
                    channel.stream.sandboxFd.reset();
                }
            }
        }
    }
    {
        std::lock_guard lock(mutex_);
        done_ = true;
    }
    finished_.notify_all();
}

}  // namespace moat
