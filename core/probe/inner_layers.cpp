// SPDX-License-Identifier: Apache-2.0
#include "probe/inner_layers.h"

#include "probe/forked_steps.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <string>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace moat::probe {

namespace {

// Exit codes of the child, each naming the step that failed.
enum Step : int { Done = 0, NoNewPrivs = 20, Ruleset = 21, RestrictSelf = 22, Filter = 23 };

const char* stepText(int code)
{
    switch (code) {
    case NoNewPrivs: return "prctl(PR_SET_NO_NEW_PRIVS) failed";
    case Ruleset: return "landlock_create_ruleset failed";
    case RestrictSelf: return "landlock_restrict_self failed";
    case Filter: return "loading a seccomp filter failed";
    default: return "the child failed";
    }
}

[[noreturn]] void layeringChild(const void*, int errorPipe)
{
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        failForkedStep(NoNewPrivs, errorPipe);
    }
    landlock_ruleset_attr attributes{};
    attributes.handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_CHAR;  // any right: the child creates nothing
    const long ruleset = ::syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) {
        failForkedStep(Ruleset, errorPipe);
    }
    if (::syscall(SYS_landlock_restrict_self, static_cast<int>(ruleset), 0) != 0) {
        failForkedStep(RestrictSelf, errorPipe);
    }
    sock_filter allowAll = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    sock_fprog program{1, &allowAll};
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0) {
        failForkedStep(Filter, errorPipe);
    }
    ::_exit(Done);
}

}  // namespace

Check innerSandboxLayers()
{
    const std::string failure = runForkedSteps(layeringChild, nullptr, stepText);
    if (!failure.empty()) {
        return {"inner_sandbox_layers", false, failure};
    }
    return {"inner_sandbox_layers", true, "a child added a Landlock domain and a seccomp filter of its own"};
}

}  // namespace moat::probe
