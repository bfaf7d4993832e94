// SPDX-License-Identifier: Apache-2.0
// Claims about what the kernel enforces on a default sandbox: namespaces,
// capabilities and no_new_privs, the seccomp filter, the Landlock domain.
#include "claims/claim_sections_p.h"
#include "claims/landlock_rights.h"
#include "policy/egress_endpoints.h"
#include "runtime/seccomp_policy.h"

#include <seccomp.h>

namespace moat::claims::detail {

namespace {

void addNamespaceClaims(std::vector<Claim>& out)
{
    out.push_back({"namespaces.new", "namespaces",
                   "The command runs in new user, mount, pid, network, IPC, UTS, cgroup and time namespaces, created "
                   "together in one clone3; without user namespaces moat does not start",
                   "sandbox_namespaces",
                   {"user: the agent is never host uid 0 (an ordinary user's own uid; when root runs moat, uid "
                    "2147418112, which no account uses)",
                    "mount: the sandbox's own tree; the host's is detached after pivot_root",
                    "pid: no process outside the sandbox can be seen or named by pid",
                    "network: only lo (see the network claims)", "ipc: no System V or POSIX IPC shared with the host",
                    "uts: its own hostname (moat-<session>)", "cgroup: the cgroup tree seen from its own root",
                    "time: its own monotonic and boot-time clock offsets"}});
    out.push_back({"namespaces.procfs", "namespaces",
                   "/proc is a fresh procfs of the sandbox's pid namespace: no host process is listed, and /proc/sys "
                   "is read-only",
                   "procfs_private",
                   {}});
}

void addPrivilegeClaims(std::vector<Claim>& out)
{
    const char* area = "privileges";
    out.push_back({"privileges.cap_effective", area,
                   "The effective capability set of the command and of everything it starts is empty", "cap_eff_zero",
                   {"CapEff: 0000000000000000"}});
    out.push_back({"privileges.cap_permitted", area, "The permitted capability set is empty", "cap_prm_zero",
                   {"CapPrm: 0000000000000000"}});
    out.push_back({"privileges.cap_bounding", area,
                   "The bounding set is empty: no exec, setuid binary or file capability can bring a capability back",
                   "cap_bnd_zero",
                   {"CapBnd: 0000000000000000"}});
    out.push_back({"privileges.cap_ambient", area, "The ambient capability set is empty", "cap_amb_zero",
                   {"CapAmb: 0000000000000000", "the inheritable set is emptied too (CapInh)"}});
    out.push_back({"privileges.no_new_privs", area,
                   "no_new_privs is set: setuid and setgid binaries (sudo, su) and file capabilities grant nothing",
                   "no_new_privs",
                   {"NoNewPrivs: 1",
                    "sandbox init, pid 1 inside, is not dumpable: the agent cannot trace it or read its memory"}});
}

std::string denialLine(const SeccompDenial& denial)
{
    std::string line = denial.syscall + ": " + denial.reason;
    // Negative: unknown (__NR_SCMP_ERROR) or one of libseccomp's pseudo numbers
    // for a call of another architecture, such as vm86 on x86-64.
    if (seccomp_syscall_resolve_name(denial.syscall.c_str()) < 0) {
        line += " (no such system call on this architecture)";
    }
    return line;
}

void addSeccompClaims(const ClaimsContext& context, std::vector<Claim>& out)
{
    if (!context.seccomp) {
        out.push_back({"seccomp.filter", "seccomp",
                       "This kernel cannot enforce seccomp filters: moat refuses to start a sandbox here unless "
                       "--allow-degraded=seccomp (recorded), and such a sandbox has no system-call filter",
                       "seccomp_mode",
                       {"kernel: no seccomp filters (CONFIG_SECCOMP_FILTER)"}});
        return;
    }
    out.push_back({"seccomp.filter", "seccomp",
                   "Every process of the sandbox runs under moat's seccomp filter, inherited by its children and "
                   "kept across execve",
                   "seccomp_mode",
                   {"Seccomp: 2 (filter)",
                    "ptrace stays allowed so that debuggers work: the pid namespace hides every process outside, and "
                    "Landlock forbids tracing outside the sandbox's domain"}});
    Claim denied{"seccomp.deny_list", "seccomp", "These system calls fail with EPERM, each for the reason given",
                 "seccomp_filter_denies", {}};
    for (const auto& denial : SeccompPolicy::denyList()) {
        denied.details.push_back(denialLine(denial));
    }
    out.push_back(std::move(denied));
    Claim byArgument{"seccomp.argument_denials", "seccomp",
                     "These calls are refused by their arguments or their ABI, each for the reason given",
                     "seccomp_filter_denies", {}};
    for (const auto& denial : SeccompPolicy::argumentDenials()) {
        byArgument.details.push_back(denial.syscall + ": " + denial.reason);
    }
    out.push_back(std::move(byArgument));
}

std::string abiFeatureMissing(int abi)
{
    std::vector<std::string> missing;
    for (const auto& [needed, feature] :
         {std::pair{2, "linking and renaming across directories (refer, ABI 2)"}, {3, "truncation (ABI 3)"},
          {4, "TCP bind and connect (ABI 4)"}, {5, "ioctl on device files (ABI 5)"},
          {6, "abstract unix socket and signal scoping (ABI 6)"}}) {
        if (abi < needed) {
            missing.push_back(feature);
        }
    }
    return missing.empty() ? "" : "not handled on this kernel: " + joinedList(missing);
}

void addLandlockClaims(const ClaimsContext& context, std::vector<Claim>& out)
{
    const int abi = abiInUse(context.landlockKernelAbi);
    if (abi < 0) {
        out.push_back({"landlock.abi", "landlock",
                       "This kernel has no Landlock: moat refuses to start a sandbox here unless "
                       "--allow-degraded=landlock (recorded), and such a sandbox has no Landlock domain",
                       "landlock_abi",
                       {"kernel: Landlock compiled out or not enabled at boot (add \"landlock\" to lsm=)"}});
        return;
    }
    Claim abiClaim{"landlock.abi", "landlock",
                   "Landlock ABI " + std::to_string(abi) + " is in use (the kernel offers ABI " +
                       std::to_string(context.landlockKernelAbi) + "; moat uses the features of ABI 1 to " +
                       std::to_string(kHighestHandledAbi) + ")",
                   "landlock_abi",
                   {}};
    if (auto missing = abiFeatureMissing(abi); !missing.empty()) {
        abiClaim.details.push_back(missing);
    }
    out.push_back(std::move(abiClaim));

    const LandlockRights rights = defaultSandboxRights(abi);
    out.push_back({"landlock.filesystem", "landlock",
                   "Sandbox init confines itself and the command with a Landlock domain that handles " +
                       std::to_string(rights.fs.size()) +
                       " file system rights: an access not allowed below is denied, whatever the mounts permit",
                   "landlock_enforced",
                   {"handled: " + joinedList(rights.fs), "read and execute: everywhere in the new root",
                    "read, write and ioctl: /dev", "read and write: /proc",
                    "every handled right but make_char and make_block: the workspace, /tmp, /dev/shm and $HOME"}});
    if (!rights.net.empty()) {
        out.push_back({"landlock.tcp", "landlock",
                       "Landlock handles TCP bind and connect: the command binds no TCP port and connects only to "
                       "moat's own listeners on the sandbox's loopback",
                       "landlock_enforced",
                       {"handled: " + joinedList(rights.net),
                        "connect allowed to ports " + std::to_string(kDnsPort) + " (DNS stub), " +
                            std::to_string(kProxyHttpPort) + " (HTTP proxy) and " + std::to_string(kProxySocksPort) +
                            " (SOCKS5 proxy)"}});
    }
    if (!rights.scopes.empty()) {
        out.push_back({"landlock.scope", "landlock",
                       "Landlock scopes abstract unix sockets and signals: the command cannot connect to an abstract "
                       "socket (X11, D-Bus, ...) or signal a process created outside the sandbox's domain",
                       "landlock_enforced",
                       {"scoped: " + joinedList(rights.scopes)}});
    }
}

}  // namespace

void addConfinementClaims(const ClaimsContext& context, std::vector<Claim>& out)
{
    addNamespaceClaims(out);
    addPrivilegeClaims(out);
    addSeccompClaims(context, out);
    addLandlockClaims(context, out);
}

}  // namespace moat::claims::detail
