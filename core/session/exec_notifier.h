// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/unique_fd.h"
#include "runtime/seccomp_listener.h"
#include "session/exec_arguments.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace moat {

// One execve or execveat a process of the sandbox asked for. An attempt:
// reported before the kernel runs the call, which may still fail (no such
// file, not executable), as it does for every directory execvp tries.
struct ExecEvent {
    pid_t pid = 0;      // in the sandbox's pid namespace; 0 when it could not be told
    pid_t hostPid = 0;  // in the supervisor's
    bool execveat = false;
    int dirfd = 0;  // execveat: the directory the path is relative to (AT_FDCWD is -100)
    int flags = 0;  // execveat: AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW
    ExecArguments arguments;
};

// Serves the seccomp user-notification listener on which every execve and
// execveat of the sandbox waits (SeccompOptions::notifyExec), on the
// supervisor's event loop. For each one it copies the path and argv out of
// the caller (bounded by ExecReadLimits), always answers "continue" (the
// kernel then runs the call exactly as asked: nothing is decided here, so a
// race with the caller cannot widen anything), and reports the attempt.
//
// Against a hostile caller that execs in a tight loop: each notification
// costs a few system calls and at most a few dozen reads of the caller's
// memory; after kMaxPerTurn in a row the rest of the event loop runs before
// the next. `admit`, asked before any reading, lets the supervisor's event
// budget skip the reading (the exec is still answered at once).
//
// Every notification is answered, even when its memory cannot be read
// (then ExecArguments::error says why), or its caller would wait forever.
// One that went away before its answer (killed, or interrupted by a signal,
// after which the kernel restarts the call and notifies again) is not
// reported. If the listener breaks, it is closed: every exec in the sandbox
// then fails with ENOSYS instead of waiting.
class ExecNotifier {
public:
    using Handler = std::function<void(const ExecEvent&)>;
    using Admission = std::function<bool()>;

    static constexpr int kMaxPerTurn = 16;
    static constexpr std::size_t kMaxHeld = 64;

    ExecNotifier(boost::asio::io_context& io, UniqueFd listener, Handler onExec, Admission admit = {},
                 ExecReadLimits limits = {});
    ~ExecNotifier();
    ExecNotifier(const ExecNotifier&) = delete;
    ExecNotifier& operator=(const ExecNotifier&) = delete;

    void start();
    // Closes the listener: an exec still to come fails with ENOSYS.
    void stop();

    // Until release(), reports wait (answers do not; at most kMaxHeld wait,
    // later ones are dropped). The command's own exec is reported by init
    // on its channel, which races with the first execs the command makes:
    // the supervisor holds from the start and releases once it recorded it.
    void hold();
    void release();

    // Notifications answered "continue" (the kernel ran the call).
    std::uint64_t answered() const { return answered_; }

private:
    enum class Step { Handled, Idle, Closed };

    void serve();
    void serveLater();
    void waitForNext();
    Step handleOne();
    void readCaller(const SeccompRequest& request, ExecEvent& event, std::uint64_t pathAddress,
                    std::uint64_t argvAddress);

    boost::asio::io_context& io_;
    boost::asio::posix::stream_descriptor descriptor_;  // owns the listener
    SeccompListener listener_;
    UniqueFd proc_;
    Handler onExec_;
    Admission admit_;
    ExecReadLimits limits_;
    std::uint64_t answered_ = 0;
    bool held_ = false;
    std::vector<ExecEvent> heldEvents_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    bool stopped_ = false;
};

}  // namespace moat
