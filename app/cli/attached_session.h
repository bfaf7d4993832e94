// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/moat_paths.h"
#include "base/unique_fd.h"

#include <signal.h>

#include <string>

namespace moat::cli {

// `moat run` through moatd, after StartSession: this process waits on its
// end of the client link (helper/org.moat.Manager1.xml, StartSession) with
// a blocking poll, no event loop. The session's terminal or pipes are the
// supervisor's; moat only
//   - forwards the signals it receives (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
//     SIGUSR1, SIGUSR2) as {"t":"signal","signal":N}, and SIGWINCH to the
//     supervisor itself, which holds the terminal and resizes the pty;
//   - says when an approved request's successor takes over;
//   - exits with the last session's exit code ({"t":"ended"}).
// When the link ends without "ended" (moatd died), the session runs on
// without moatd: moat waits for its supervisor to exit and reads the exit
// code from the session's status.json, and forwards signals to the
// supervisor itself meanwhile.
class AttachedSession {
public:
    // The signals above, blocked so that signalfd() reads them. Make it
    // before any thread starts (QtDBus's): threads inherit the mask, and a
    // thread without it would take the signal's default action for the
    // whole process. Restores the mask when it goes.
    class SignalBlock {
    public:
        SignalBlock();
        ~SignalBlock();
        SignalBlock(const SignalBlock&) = delete;
        SignalBlock& operator=(const SignalBlock&) = delete;
        const sigset_t& set() const { return set_; }

    private:
        sigset_t set_{};
        sigset_t previous_{};
    };

    AttachedSession(UniqueFd link, std::string sessionId, MoatPaths paths, const SignalBlock& signals);

    // The exit status for `moat run` (CLI.md).
    int run();

private:
    bool handleLine(const std::string& line, int* exitCode);
    void forwardSignal(int sig);
    int waitForSupervisor();
    int supervisorPidFromStatus() const;
    void say(const std::string& text) const;

    UniqueFd link_;
    UniqueFd signalFd_;
    std::string sessionId_;
    MoatPaths paths_;
    int supervisorPid_ = 0;
};

}  // namespace moat::cli
