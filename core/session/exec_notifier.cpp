// SPDX-License-Identifier: Apache-2.0
#include "session/exec_notifier.h"

#include <boost/asio/post.hpp>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <string_view>

namespace moat {

namespace asio = boost::asio;

namespace {

// The caller's pid in the innermost pid namespace it belongs to (the
// sandbox's): the last number of the NSpid line of /proc/PID/status.
pid_t innermostPid(int status)
{
    char text[4096];
    const ssize_t n = ::pread(status, text, sizeof text - 1, 0);
    if (n <= 0) {
        return 0;
    }
    const std::string_view all(text, static_cast<std::size_t>(n));
    const std::size_t at = all.find("\nNSpid:");
    if (at == std::string_view::npos) {
        return 0;
    }
    std::string_view line = all.substr(at + 7);
    line = line.substr(0, line.find('\n'));
    const std::size_t last = line.find_last_of(" \t");
    if (last != std::string_view::npos) {
        line.remove_prefix(last + 1);
    }
    pid_t pid = 0;
    const auto parsed = std::from_chars(line.data(), line.data() + line.size(), pid);
    return parsed.ec == std::errc() && parsed.ptr == line.data() + line.size() ? pid : 0;
}

}  // namespace

ExecNotifier::ExecNotifier(asio::io_context& io, UniqueFd listener, Handler onExec, Admission admit,
                           ExecReadLimits limits)
    : io_(io),
      descriptor_(io),
      listener_(listener.get()),
      proc_(::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC)),
      onExec_(std::move(onExec)),
      admit_(std::move(admit)),
      limits_(limits)
{
    boost::system::error_code ec;
    if (listener) {
        descriptor_.assign(listener.release(), ec);
    }
    if (ec) {
        spdlog::warn("exec records: {}", ec.message());
    }
}

ExecNotifier::~ExecNotifier()
{
    stop();
}

void ExecNotifier::start()
{
    // A notification already waiting is not missed: the listener joined the
    // event loop's epoll when it was assigned, and epoll reports what is
    // ready at that moment. Waiting (rather than looking at once) keeps the
    // event loop's order, in which init's "started" comes first.
    waitForNext();
}

void ExecNotifier::stop()
{
    stopped_ = true;
    boost::system::error_code ignored;
    descriptor_.close(ignored);
}

void ExecNotifier::hold()
{
    held_ = true;
}

void ExecNotifier::release()
{
    held_ = false;
    std::vector<ExecEvent> waiting;
    waiting.swap(heldEvents_);
    for (const ExecEvent& event : waiting) {
        onExec_(event);
    }
}

void ExecNotifier::serveLater()
{
    asio::post(io_, [this, alive = std::weak_ptr<bool>(alive_)] {
        if (!alive.expired() && !stopped_) {
            serve();
        }
    });
}

void ExecNotifier::waitForNext()
{
    descriptor_.async_wait(asio::posix::descriptor_base::wait_read,
                           [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
                               if (!ec && !alive.expired() && !stopped_) {
                                   serve();
                               }
                           });
}

void ExecNotifier::serve()
{
    // The event loop's epoll is edge-triggered: every waiting notification
    // is taken before waiting again, or the next edge might never come.
    for (int i = 0; i < kMaxPerTurn; ++i) {
        switch (handleOne()) {
        case Step::Handled:
            continue;
        case Step::Idle:
            waitForNext();
            return;
        case Step::Closed:
            stop();
            return;
        }
    }
    serveLater();  // more may wait: the rest of the event loop runs first
}

ExecNotifier::Step ExecNotifier::handleOne()
{
    switch (listener_.wait(0)) {
    case SeccompListener::State::Waiting:
        break;
    case SeccompListener::State::Empty:
        return Step::Idle;
    case SeccompListener::State::Closed:
        return Step::Closed;
    }
    auto request = listener_.receive();
    if (!request) {
        if (request.error().errnum == ENOENT) {
            return Step::Handled;  // its caller went away since
        }
        spdlog::error("exec records: {}; closing the listener (execs in the sandbox now fail with ENOSYS)",
                      request.error().message());
        return Step::Closed;
    }

    ExecEvent event;
    event.hostPid = request->pid;
    const auto& data = request->data;
    bool report = false;
    if (data.nr == __NR_execve || data.nr == __NR_execveat) {
        event.execveat = data.nr == __NR_execveat;
        report = !admit_ || admit_();
    }
    if (report) {
        if (event.execveat) {
            event.dirfd = static_cast<int>(data.args[0]);
            event.flags = static_cast<int>(data.args[4]);
            readCaller(request.value(), event, data.args[1], data.args[2]);
        } else {
            readCaller(request.value(), event, data.args[0], data.args[1]);
        }
    }

    if (auto answered = listener_.letRun(request->id); !answered) {
        if (answered.error().errnum == ENOENT) {
            // Killed, or interrupted by a signal (the kernel restarts the
            // call, which comes again as a new notification): not an exec.
            return Step::Handled;
        }
        spdlog::error("exec records: {}; closing the listener (execs in the sandbox now fail with ENOSYS)",
                      answered.error().message());
        return Step::Closed;
    }
    ++answered_;
    if (report && !held_) {
        onExec_(event);
    } else if (report && heldEvents_.size() < kMaxHeld) {
        heldEvents_.push_back(std::move(event));
    }
    return Step::Handled;
}

void ExecNotifier::readCaller(const SeccompRequest& request, ExecEvent& event, std::uint64_t pathAddress,
                              std::uint64_t argvAddress)
{
    char name[32];
    std::snprintf(name, sizeof name, "%d/status", static_cast<int>(request.pid));
    UniqueFd status(::openat(proc_.get(), name, O_RDONLY | O_CLOEXEC));
    ExecArguments arguments = readExecArguments(request.pid, pathAddress, argvAddress, limits_);

    // The pid names the caller only while its notification is pending: had
    // the caller died, the number could belong to another process by now.
    // Still pending after the reads, the caller was alive (blocked in the
    // call) throughout them, so what was read and opened is its own.
    if (!listener_.pending(request.id)) {
        return;  // the answer will fail with ENOENT, and nothing is reported
    }
    event.arguments = std::move(arguments);
    if (status) {
        event.pid = innermostPid(status.get());
    }
}

}  // namespace moat
