// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"

#include <string>
#include <vector>

namespace moat {

// One entry of the sandbox's system-call deny list, with the one-line reason
// a reviewer needs (published by `moat claims` and docs/sandbox.md).
struct SeccompDenial {
    std::string syscall;
    std::string reason;
};

struct SeccompOptions {
    bool allowNamespaces = false;  // --sudo: nested user namespaces are allowed
    // Every native execve and execveat waits for an answer on the filter's
    // user-notification listener (SECCOMP_RET_USER_NOTIF), which the
    // supervisor serves to record what runs (session/exec_notifier.h). Only
    // for a caller that serves it: unanswered, the first exec never returns.
    bool notifyExec = false;
};

class SeccompPolicy {
public:
    static bool kernelSupportsFilters();
    // User notification with SECCOMP_USER_NOTIF_FLAG_CONTINUE (Linux 5.5;
    // libseccomp's API level 6 implies 5.7).
    static bool kernelSupportsExecNotify();

    // Whole-syscall denials (EPERM), in the order they are documented.
    static const std::vector<SeccompDenial>& denyList();
    // Denials that depend on an argument (ioctl requests, socket families,
    // clone/unshare namespace flags, personality bits).
    static const std::vector<SeccompDenial>& argumentDenials();

    // Loads the filter into the calling thread; inherited by every child and
    // kept across execve. Foreign system-call ABIs (i386, x32 on x86-64;
    // arm32 on aarch64) kill the process. With `notifyExec`, returns the
    // filter's listener (the caller owns it; it is close-on-exec), else an
    // empty fd. A filter with a listener is the only one a process may have
    // in its chain: a program inside that asks for its own gets EBUSY.
    static Result<UniqueFd> apply(const SeccompOptions& options);
};

}  // namespace moat
