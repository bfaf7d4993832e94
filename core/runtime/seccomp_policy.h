// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

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
};

class SeccompPolicy {
public:
    static bool kernelSupportsFilters();

    // Whole-syscall denials (EPERM), in the order they are documented.
    static const std::vector<SeccompDenial>& denyList();
    // Denials that depend on an argument (ioctl requests, socket families,
    // clone/unshare namespace flags, personality bits).
    static const std::vector<SeccompDenial>& argumentDenials();

    // Loads the filter into the calling thread; inherited by every child and
    // kept across execve. Foreign system-call ABIs (i386, x32 on x86-64;
    // arm32 on aarch64) kill the process.
    static Status apply(const SeccompOptions& options);
};

}  // namespace moat
