// SPDX-License-Identifier: Apache-2.0
#include "runtime/seccomp_policy.h"

#include <linux/seccomp.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include <seccomp.h>

#include <cerrno>
#include <memory>

namespace moat {

namespace {

// Namespace flags a process could use to build a new mount or user view.
constexpr uint64_t kNamespaceFlags[] = {CLONE_NEWNS,  CLONE_NEWUTS, CLONE_NEWIPC,    CLONE_NEWUSER,
                                        CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP, 0x00000080 /* NEWTIME */};

// Socket families the sandbox keeps. Everything else is EAFNOSUPPORT: AF_VSOCK
// is not namespaced and reaches the hypervisor, AF_ALG and the rarer families
// are kernel attack surface no coding task needs.
constexpr int kAllowedFamilies[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};

struct FilterDeleter {
    void operator()(scmp_filter_ctx ctx) const { seccomp_release(ctx); }
};
using Filter = std::unique_ptr<void, FilterDeleter>;

Error ruleError(const std::string& what, int rc)
{
    return Error::fromErrno("seccomp: cannot add the rule for " + what, -rc);
}

}  // namespace

const std::vector<SeccompDenial>& SeccompPolicy::denyList()
{
    static const std::vector<SeccompDenial> list = {
        {"mount", "no new mounts: the file system view is fixed before the command starts"},
        {"umount2", "cannot uncover what a mount hides"},
        {"pivot_root", "the root is fixed"},
        {"chroot", "the root is fixed"},
        {"move_mount", "new mount API: no new mounts"},
        {"open_tree", "new mount API: no copies of mount trees"},
        {"fsopen", "new mount API: no new file systems"},
        {"fsconfig", "new mount API"},
        {"fsmount", "new mount API"},
        {"fspick", "new mount API: no reconfiguring mounted file systems"},
        {"mount_setattr", "cannot drop read-only or other mount flags"},
        {"setns", "cannot join another namespace"},
        {"bpf", "eBPF programs are kernel attack surface and can read kernel memory"},
        {"perf_event_open", "performance counters leak information and are kernel attack surface"},
        {"keyctl", "kernel keyrings are not namespaced: they can hold the user's keys"},
        {"add_key", "kernel keyrings are not namespaced"},
        {"request_key", "kernel keyrings are not namespaced"},
        {"userfaultfd", "used to win kernel race conditions in exploits"},
        {"io_uring_setup", "io_uring bypasses seccomp for the operations it performs and is frequent attack surface"},
        {"io_uring_enter", "io_uring, as above"},
        {"io_uring_register", "io_uring, as above"},
        {"kexec_load", "cannot load a new kernel"},
        {"kexec_file_load", "cannot load a new kernel"},
        {"init_module", "cannot load kernel modules"},
        {"finit_module", "cannot load kernel modules"},
        {"delete_module", "cannot unload kernel modules"},
        {"acct", "process accounting is host-wide"},
        {"swapon", "swap is host-wide"},
        {"swapoff", "swap is host-wide"},
        {"reboot", "the host's power state is not the agent's"},
        {"syslog", "the kernel log leaks addresses and host activity"},
        {"open_by_handle_at", "opens files by handle, bypassing the mount view (the classic container escape)"},
        {"quotactl", "quotas are host-wide"},
        {"quotactl_fd", "quotas are host-wide"},
        {"lookup_dcookie", "kernel profiling interface"},
        {"uselib", "obsolete library loader, attack surface only"},
        {"ustat", "obsolete, leaks host file system statistics"},
        {"sysfs", "obsolete"},
        {"_sysctl", "obsolete sysctl interface"},
        {"iopl", "raw I/O port access"},
        {"ioperm", "raw I/O port access"},
        {"vhangup", "hangs up terminals"},
        {"settimeofday", "the clock is host-wide"},
        {"clock_settime", "the clock is host-wide"},
        {"clock_adjtime", "the clock is host-wide"},
        {"fanotify_init", "file system-wide monitoring"},
        {"nfsservctl", "obsolete NFS server control"},
        {"vm86", "32-bit virtual 8086 mode"},
        {"vm86old", "32-bit virtual 8086 mode"},
    };
    return list;
}

const std::vector<SeccompDenial>& SeccompPolicy::argumentDenials()
{
    static const std::vector<SeccompDenial> list = {
        {"ioctl(TIOCSTI)", "no faking keystrokes into a terminal"},
        {"ioctl(TIOCLINUX)", "no faking keystrokes or reading the screen of a virtual console"},
        {"clone/unshare(CLONE_NEW*)", "no nested namespaces (allowed with --sudo), so no fresh capabilities"},
        {"clone3", "answered ENOSYS: its flags cannot be inspected, and libc falls back to clone"},
        {"socket(other families)", "only AF_UNIX, AF_INET, AF_INET6 and AF_NETLINK; AF_VSOCK would reach the hypervisor"},
        {"personality(READ_IMPLIES_EXEC|MMAP_PAGE_ZERO)", "weakens memory protections exploits rely on"},
        {"other architectures", "i386 and x32 system calls on x86-64 (arm32 on aarch64) kill the process"},
    };
    return list;
}

bool SeccompPolicy::kernelSupportsFilters()
{
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && seccomp_api_get() >= 1;
}

bool SeccompPolicy::kernelSupportsExecNotify()
{
    return kernelSupportsFilters() && seccomp_api_get() >= 6;
}

Result<UniqueFd> SeccompPolicy::apply(const SeccompOptions& options)
{
    Filter filter(seccomp_init(SCMP_ACT_ALLOW));
    if (!filter) {
        return Error{"seccomp: cannot create a filter", ENOMEM};
    }
    if (int rc = seccomp_attr_set(filter.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS); rc < 0) {
        return ruleError("foreign architectures", rc);
    }
    for (const auto& denial : denyList()) {
        const int nr = seccomp_syscall_resolve_name(denial.syscall.c_str());
        if (nr == __NR_SCMP_ERROR) {
            continue;  // not a system call of this architecture
        }
        if (int rc = seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(EPERM), nr, 0); rc < 0 && rc != -EEXIST) {
            return ruleError(denial.syscall, rc);
        }
    }

    for (unsigned long request : {static_cast<unsigned long>(TIOCSTI), static_cast<unsigned long>(TIOCLINUX)}) {
        if (int rc = seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                      SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, request));
            rc < 0) {
            return ruleError("ioctl", rc);
        }
    }

    if (!options.allowNamespaces) {
        for (uint64_t flag : kNamespaceFlags) {
            if (flag != 0x80) {  // in clone(2) that bit is part of the exit signal
                if (int rc = seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                                              SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
                    rc < 0) {
                    return ruleError("clone", rc);
                }
            }
            if (int rc = seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
                                          SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
                rc < 0) {
                return ruleError("unshare", rc);
            }
        }
    }
    if (int rc = seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0); rc < 0) {
        return ruleError("clone3", rc);
    }

    for (int family = 0; family < 64; ++family) {
        bool allowed = false;
        for (int keep : kAllowedFamilies) {
            allowed = allowed || keep == family;
        }
        if (!allowed) {
            if (int rc = seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
                                          SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(family)));
                rc < 0) {
                return ruleError("socket", rc);
            }
        }
    }
    if (int rc = seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
                                  SCMP_A0(SCMP_CMP_GE, 64));
        rc < 0) {
        return ruleError("socket", rc);
    }

    for (uint64_t bit : {static_cast<uint64_t>(READ_IMPLIES_EXEC), static_cast<uint64_t>(MMAP_PAGE_ZERO)}) {
        if (int rc = seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1,
                                      // Bit 31 set is the read-only query personality(0xffffffff).
                                      SCMP_A0(SCMP_CMP_MASKED_EQ, bit | 0x80000000ULL, bit));
            rc < 0) {
            return ruleError("personality", rc);
        }
    }

    if (options.notifyExec) {
        // A record, not a boundary: the supervisor reads the path and argv
        // while the caller waits, then always lets the kernel run the call
        // as asked (SECCOMP_USER_NOTIF_FLAG_CONTINUE). Nothing is decided
        // here, so a caller that rewrites its arguments meanwhile gains
        // nothing but a wrong line in its own record.
        for (int nr : {SCMP_SYS(execve), SCMP_SYS(execveat)}) {
            if (int rc = seccomp_rule_add(filter.get(), SCMP_ACT_NOTIFY, nr, 0); rc < 0) {
                return ruleError("execve and execveat (user notification)", rc);
            }
        }
    }

    if (int rc = seccomp_load(filter.get()); rc < 0) {
        return Error::fromErrno("seccomp: cannot load the filter", -rc);
    }
    UniqueFd listener;
    if (options.notifyExec) {
        // libseccomp hands the listener over: releasing the filter context
        // leaves it open (tst_exec_notifier checks there is one copy).
        const int fd = seccomp_notify_fd(filter.get());
        if (fd < 0) {
            return Error{"seccomp: the filter was loaded without its exec listener", EOPNOTSUPP,
                         "libseccomp 2.5 or later and Linux 5.7 or later are needed for exec records"};
        }
        listener.reset(fd);
    }
    return listener;
}

}  // namespace moat
