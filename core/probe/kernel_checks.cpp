// SPDX-License-Identifier: Apache-2.0
#include "probe/kernel_checks.h"

#include "probe/forked_steps.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace moat::probe {

namespace {

// Writes text to path; for the child's own uid_map and gid_map.
bool writeFile(const char* path, const char* text)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    const auto length = static_cast<ssize_t>(std::strlen(text));
    const bool written = ::write(fd, text, static_cast<size_t>(length)) == length;
    ::close(fd);
    return written;
}

// Exit codes of the userns child, each naming the step that failed.
enum ChildStep : int { Done = 0, Unshare = 10, UidMap = 11, Fork = 12, Private = 13, MountProc = 14, Wait = 15 };

const char* stepText(int code)
{
    switch (code) {
    case Unshare: return "unshare(CLONE_NEWUSER|CLONE_NEWNS|CLONE_NEWPID) failed";
    case UidMap: return "writing the child's uid_map/gid_map failed";
    case Fork: return "fork into the new pid namespace failed";
    case Private: return "making the new mount namespace private failed";
    case MountProc: return "mounting a fresh /proc failed";
    case Wait: return "waiting for pid 1 of the new namespace failed";
    default: return "the child failed";
    }
}

[[noreturn]] void fail(ChildStep step, int errorFd)
{
    failForkedStep(step, errorFd);
}

// Runs in the forked child only: syscalls and _exit, no allocation.
struct Ids {
    uid_t uid;
    gid_t gid;
};

[[noreturn]] void userNamespaceChild(const void* argument, int errorFd)
{
    const uid_t uid = static_cast<const Ids*>(argument)->uid;
    const gid_t gid = static_cast<const Ids*>(argument)->gid;
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID) != 0) {
        fail(Unshare, errorFd);
    }
    char map[64];
    std::snprintf(map, sizeof map, "0 %u 1\n", uid);
    const bool mapped = writeFile("/proc/self/setgroups", "deny") && writeFile("/proc/self/uid_map", map);
    std::snprintf(map, sizeof map, "0 %u 1\n", gid);
    if (!mapped || !writeFile("/proc/self/gid_map", map)) {
        fail(UidMap, errorFd);
    }
    const pid_t init = ::fork();
    if (init < 0) {
        fail(Fork, errorFd);
    }
    if (init == 0) {
        // pid 1 of the new namespace, in a mount namespace of its own: the
        // private propagation keeps this /proc from reaching the host's.
        if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
            fail(Private, errorFd);
        }
        if (::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
            fail(MountProc, errorFd);
        }
        ::_exit(Done);
    }
    int status = 0;
    if (::waitpid(init, &status, 0) != init || !WIFEXITED(status)) {
        fail(Wait, errorFd);
    }
    ::_exit(WEXITSTATUS(status));
}

}  // namespace

Check lsmList()
{
    std::ifstream file("/sys/kernel/security/lsm");
    std::string list;
    if (!file || !std::getline(file, list)) {
        return {"lsm_list", false, "/sys/kernel/security/lsm not readable"};
    }
    const bool landlock = ("," + list + ",").find(",landlock,") != std::string::npos;
    return {"lsm_list", landlock, "lsm: " + list};
}

Check landlockAbi()
{
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 0) {
        const int error = errno;
        return {"landlock_abi", false,
                std::string("landlock_create_ruleset(VERSION): ") + std::strerror(error) +
                    (error == EOPNOTSUPP ? " (built in but not enabled at boot)"
                                         : error == ENOSYS ? " (not built into this kernel)" : ""),
                0};
    }
    return {"landlock_abi", abi >= 6, "Landlock ABI " + std::to_string(abi), abi};
}

Check seccompAvailable()
{
    const int mode = ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
    if (mode < 0) {
        return {"seccomp_available", false, std::string("prctl(PR_GET_SECCOMP): ") + std::strerror(errno)};
    }
    unsigned int action = SECCOMP_RET_KILL_PROCESS;
    if (::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0) {
        return {"seccomp_available", false,
                std::string("seccomp(GET_ACTION_AVAIL, KILL_PROCESS): ") + std::strerror(errno)};
    }
    return {"seccomp_available", true, "seccomp filters available (this process: mode " + std::to_string(mode) + ")"};
}

Check userNamespaceProcfs()
{
    const Ids ids{::getuid(), ::getgid()};
    const std::string failure = runForkedSteps(userNamespaceChild, &ids, stepText);
    if (!failure.empty()) {
        return {"userns_procfs", false, failure};
    }
    return {"userns_procfs", true, "unprivileged user+mount+pid namespaces mounted a fresh /proc"};
}

}  // namespace moat::probe
