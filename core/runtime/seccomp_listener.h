// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <linux/seccomp.h>
#include <sys/types.h>

#include <cstdint>
#include <vector>

namespace moat {

// One system call that waits for an answer on a seccomp listener.
struct SeccompRequest {
    std::uint64_t id = 0;
    pid_t pid = 0;  // in the pid namespace of whoever received it
    seccomp_data data{};
};

// The supervisor's side of a seccomp user-notification listener
// (SeccompOptions::notifyExec): look, receive, check, answer "continue".
// Does not own the fd. Moat never answers anything but "continue": the
// listener records, it does not decide.
class SeccompListener {
public:
    enum class State {
        Waiting,  // a request waits: receive() will not block
        Empty,    // nothing yet
        Closed,   // no process uses the filter any more: nothing will come
    };

    explicit SeccompListener(int fd);

    int fd() const { return fd_; }

    // Whether a request waits, after up to `timeoutMs` (0: just look).
    State wait(int timeoutMs) const;
    // Takes a waiting request. The kernel's receive blocks while none waits:
    // call it only after wait() said Waiting. ENOENT: the caller went away
    // (killed, or interrupted by a signal) since.
    Result<SeccompRequest> receive();
    // True while the request's caller still waits for its answer (and so
    // its pid still names it).
    bool pending(std::uint64_t id) const;
    // Lets the kernel run the call as it was asked
    // (SECCOMP_USER_NOTIF_FLAG_CONTINUE). ENOENT: the caller went away.
    Status letRun(std::uint64_t id);

private:
    int fd_;
    // Sized by the running kernel (SECCOMP_GET_NOTIF_SIZES), which may know
    // a longer struct than this build's headers.
    std::vector<std::uint64_t> request_;
    std::vector<std::uint64_t> response_;
};

}  // namespace moat
