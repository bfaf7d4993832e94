// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/unique_fd.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace moat {

// Moves bytes between the user's stdio and the sandbox's pty or pipes, on a
// thread of its own with poll(2). The user's fds are never switched to
// non-blocking mode (that flag would be shared with the user's shell): they
// are read only after POLLIN, and written at most PIPE_BUF bytes after
// POLLOUT. Regular files work too (poll reports them always ready).
class StdioRelay {
public:
    // Something that takes the user's terminal over for a while (a question
    // put to the user, TerminalQuestion). Called on the relay's thread.
    class Interceptor {
    public:
        struct Hold {
            bool active = false;  // the user's keystrokes go to input(), the sandbox's output waits
            int wakeInMs = -1;    // when to call hold() again (a deadline), -1: only after wake()
        };
        virtual ~Interceptor() = default;
        virtual Hold hold() = 0;
        // Bytes the user typed while active: they never reach the sandbox.
        virtual void input(const char* data, std::size_t size) = 0;
    };

    struct Stream {
        int userFd = -1;        // not owned
        UniqueFd sandboxFd;     // owned; our end of the pipe, or a dup of the pty master
        bool toSandbox = false; // direction
        bool closeOnEof = true; // stdin pipe: EOF from the user closes the sandbox's stdin
    };

    StdioRelay();
    ~StdioRelay();
    StdioRelay(const StdioRelay&) = delete;
    StdioRelay& operator=(const StdioRelay&) = delete;

    void add(Stream stream);
    // Before start(); not owned, must outlive the relay's thread.
    void intercept(Interceptor* interceptor) { interceptor_ = interceptor; }
    void start();
    // From any thread: the relay asks the interceptor again.
    void wake();
    // Waits until every stream from the sandbox has ended, at most
    // `timeoutMs`, then stops the thread.
    void finish(int timeoutMs);

private:
    struct Channel {
        Stream stream;
        std::string pending;
        bool ended = false;
    };
    void run();
    bool outputsEnded() const;

    std::vector<Channel> channels_;
    Interceptor* interceptor_ = nullptr;
    UniqueFd wake_;  // eventfd: finish() asks the thread to stop
    std::atomic<bool> stopping_{false};
    std::atomic<bool> done_{false};
    std::mutex mutex_;
    std::condition_variable finished_;
    std::thread thread_;
};

}  // namespace moat
