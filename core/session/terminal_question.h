// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "session/stdio_relay.h"

#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <string>

namespace moat {

// Embedded mode's way to ask the person at the terminal that started the
// session (an HTTP request an `ask` rule holds): the question goes on the
// user's terminal on a line of its own, the user's keystrokes go to the
// answer instead of the agent (StdioRelay::Interceptor) and the agent's
// output waits, until Enter or the deadline. "y" or "yes" allows; anything
// else, and no answer by the deadline, denies. One question at a time; the
// others queue behind it.
//
// The question names what the agent chose (host, path, refs): it is shown
// with every byte outside printable ASCII as '?', so that nothing in it can
// reach the terminal as a control sequence. The answer is echoed here (the
// terminal is in raw mode while the agent's pty is relayed).
//
// ask() may be called from any thread; hold() and input() run on the relay's
// thread, and so does each reply.
class TerminalQuestion : public StdioRelay::Interceptor {
public:
    using Reply = std::function<void(bool allowed)>;

    // inFd: where the user types (the relay's stdin); outFd: where the
    // question is written (stderr). Not owned.
    TerminalQuestion(int inFd, int outFd);
    // Both fds are terminals: there is somebody to ask.
    bool available() const { return available_; }
    // The relay that reads inFd; it is woken when a question arrives.
    void attach(StdioRelay* relay);

    // False (and reply never called) when there is no terminal.
    bool ask(const std::string& text, std::chrono::steady_clock::time_point deadline, Reply reply);

    Hold hold() override;
    void input(const char* data, std::size_t size) override;

    // What the terminal shows of agent-chosen text.
    static std::string printable(const std::string& text);

private:
    struct Question {
        std::string text;
        std::chrono::steady_clock::time_point deadline;
        Reply reply;
    };
    void write(const std::string& text) const;
    void answer(bool allowed, const std::string& said);

    int inFd_;
    int outFd_;
    bool available_;
    StdioRelay* relay_ = nullptr;
    std::mutex mutex_;
    std::deque<Question> queue_;  // the front one is on the terminal once shown_
    bool shown_ = false;
    std::string typed_;
};

}  // namespace moat
