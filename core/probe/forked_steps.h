// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace moat::probe {

// A check that must try something only a throwaway process may (unshare,
// landlock_restrict_self, a seccomp filter) forks a child that does the
// steps and exits. The child reports the step that failed as its exit code
// and that step's errno over a pipe; nothing of it outlives the check.

// In the child: exit with step as status after sending errno to the parent.
[[noreturn]] void failForkedStep(int step, int errorPipe);

// Forks, runs child(argument, errorPipe) in the child (which must _exit),
// waits. Returns "" when the child exited 0, else what failed:
// describeStep(status) with the child's errno when it sent one.
std::string runForkedSteps(void (*child)(const void* argument, int errorPipe), const void* argument,
                           const char* (*describeStep)(int status));

}  // namespace moat::probe
