// SPDX-License-Identifier: Apache-2.0
// deny-syscalls: run a command as if the kernel lacked a security layer.
//
//   deny-syscalls LAYER[,LAYER...] -- COMMAND [ARG...]
//
// LAYER is
//   landlock  landlock_create_ruleset, landlock_add_rule and
//             landlock_restrict_self fail with ENOSYS (a kernel built without
//             Landlock, or with it left out of lsm=)
//   seccomp   seccomp() fails with ENOSYS, prctl(PR_GET_SECCOMP) and
//             prctl(PR_SET_SECCOMP) with EINVAL (a kernel without
//             CONFIG_SECCOMP_FILTER)
//
// The filter is installed with libseccomp and inherited by everything COMMAND
// starts, so moat and its supervisor see the same "kernel". Root installs it
// without no_new_privs (CAP_SYS_ADMIN allows that); anyone else gets
// no_new_privs, which moat sets for its sandbox anyway.

#include <seccomp.h>

#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

int usage()
{
    std::fprintf(stderr, "usage: deny-syscalls landlock|seccomp[,...] -- COMMAND [ARG...]\n");
    return 2;
}

bool denyAll(scmp_filter_ctx filter, const char* name, int error)
{
    const int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) {
        return true;  // not on this architecture: nothing to hide
    }
    const int rc = seccomp_rule_add(filter, SCMP_ACT_ERRNO(static_cast<uint32_t>(error)), nr, 0);
    if (rc < 0) {
        std::fprintf(stderr, "deny-syscalls: cannot add a rule for %s: %s\n", name, std::strerror(-rc));
        return false;
    }
    return true;
}

bool denyPrctl(scmp_filter_ctx filter, int option)
{
    const int rc = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EINVAL), SCMP_SYS(prctl), 1,
                                    SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(option)));
    if (rc < 0) {
        std::fprintf(stderr, "deny-syscalls: cannot add a prctl rule: %s\n", std::strerror(-rc));
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 4 || std::strcmp(argv[2], "--") != 0) {
        return usage();
    }
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter) {
        std::fprintf(stderr, "deny-syscalls: seccomp_init failed\n");
        return 1;
    }
    const std::string layers = std::string(",") + argv[1] + ",";
    bool ok = true;
    bool any = false;
    if (layers.find(",landlock,") != std::string::npos) {
        any = true;
        for (const char* name : {"landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self"}) {
            ok = ok && denyAll(filter, name, ENOSYS);
        }
    }
    if (layers.find(",seccomp,") != std::string::npos) {
        any = true;
        ok = ok && denyAll(filter, "seccomp", ENOSYS) && denyPrctl(filter, PR_GET_SECCOMP) &&
             denyPrctl(filter, PR_SET_SECCOMP);
    }
    if (!any) {
        seccomp_release(filter);
        return usage();
    }
    if (ok && geteuid() == 0) {
        ok = seccomp_attr_set(filter, SCMP_FLTATR_CTL_NNP, 0) == 0;
    }
    if (ok) {
        const int rc = seccomp_load(filter);
        if (rc < 0) {
            std::fprintf(stderr, "deny-syscalls: cannot load the filter: %s\n", std::strerror(-rc));
            ok = false;
        }
    }
    seccomp_release(filter);
    if (!ok) {
        return 1;
    }
    execvp(argv[3], argv + 3);
    std::fprintf(stderr, "deny-syscalls: cannot execute %s: %s\n", argv[3], std::strerror(errno));
    return 127;
}
