// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <termios.h>

namespace moat {

// Puts the user's terminal in raw mode while the agent's pty is relayed, so
// that Ctrl-C, Ctrl-Z and every other key reach the agent's terminal as
// bytes; restores it on destruction (and around a job-control stop).
class TerminalGuard {
public:
    explicit TerminalGuard(int fd);  // fd < 0 or not a tty: does nothing
    ~TerminalGuard();
    TerminalGuard(const TerminalGuard&) = delete;
    TerminalGuard& operator=(const TerminalGuard&) = delete;

    void makeRaw();
    void restore();

    // Copies the window size of the user's terminal to `ptyMaster`.
    void copyWindowSize(int ptyMaster) const;

private:
    int fd_ = -1;
    bool saved_ = false;
    bool raw_ = false;
    termios original_{};
};

}  // namespace moat
