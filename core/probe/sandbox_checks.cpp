// SPDX-License-Identifier: Apache-2.0
#include "probe/sandbox_checks.h"

#include "probe/joined.h"
#include "probe/mount_table.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <linux/keyctl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <set>

namespace moat::probe {

namespace {

std::string errnoName(int error)
{
    switch (error) {
    case 0: return "succeeded";
    case EPERM: return "EPERM";
    case EACCES: return "EACCES";
    case ENOSYS: return "ENOSYS";
    case EBADF: return "EBADF";
    case EFAULT: return "EFAULT";
    case EINVAL: return "EINVAL";
    case ENOKEY: return "ENOKEY";
    case E2BIG: return "E2BIG";
    case EAFNOSUPPORT: return "EAFNOSUPPORT";
    default: return std::strerror(error);
    }
}

// errno of a raw system call, 0 when it succeeded.
int errnoOf(long result)
{
    return result < 0 ? errno : 0;
}

struct DenialProbe {
    const char* name;
    int filtered;  // what moat's filter answers
    int (*call)();
};

bool isWithinAny(const std::string& path, const std::vector<std::string>& bases)
{
    for (const auto& base : bases) {
        if (!base.empty() && isPathWithin(path, base)) {
            return true;
        }
    }
    return false;
}

}  // namespace

Check sandboxNamespaces(const std::map<std::string, uint64_t>& hostNamespaces)
{
    std::vector<std::string> own, shared;
    for (const auto& [kind, inode] : hostNamespaces) {
        struct stat info {};
        if (::stat(("/proc/self/ns/" + kind).c_str(), &info) != 0) {
            shared.push_back(kind + " (unreadable)");
        } else {
            (info.st_ino == inode ? shared : own).push_back(kind);
        }
    }
    const std::set<std::string> boundary = {"user", "mnt", "pid"};
    long coreOwn = 0;
    for (const auto& kind : own) {
        coreOwn += boundary.count(kind);
    }
    const bool ok = shared.empty() && !own.empty();
    std::string detail = "own: " + (own.empty() ? std::string("none") : joined(own));
    if (!shared.empty()) {
        detail += "; shared with the host: " + joined(shared);
    }
    return {"sandbox_namespaces", ok, detail, coreOwn == 3 ? 1 : 0};
}

Check procfsPrivate(const std::map<std::string, uint64_t>& hostNamespaces)
{
    // /proc/self resolves to this process's pid as the procfs's namespace
    // numbers it: equal to getpid() only when /proc is of our own pid namespace.
    char link[64] = {};
    const ssize_t length = ::readlink("/proc/self", link, sizeof link - 1);
    const bool ours = length > 0 && std::to_string(::getpid()) == std::string(link, static_cast<size_t>(length));
    struct stat info {};
    const auto host = hostNamespaces.find("pid");
    const bool ownPidNamespace = ::stat("/proc/self/ns/pid", &info) == 0 && host != hostNamespaces.end() &&
                                 info.st_ino != host->second;
    size_t processes = 0;
    if (DIR* proc = ::opendir("/proc")) {
        while (const dirent* entry = ::readdir(proc)) {
            processes += entry->d_name[0] >= '1' && entry->d_name[0] <= '9';
        }
        ::closedir(proc);
    }
    const bool ok = ours && ownPidNamespace;
    return {"procfs_private", ok,
            std::string(ours ? "/proc is of this process's pid namespace" : "/proc is not of this process's pid namespace") +
                (ownPidNamespace ? ", which is not the host's" : ", which is the host's") + "; it lists " +
                std::to_string(processes) + " processes"};
}

Check seccompFilterDenies()
{
    static const DenialProbe probes[] = {
        {"keyctl", EPERM,
         [] { return errnoOf(::syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 0)); }},
        {"io_uring_setup", EPERM, [] { return errnoOf(::syscall(SYS_io_uring_setup, 0, nullptr)); }},
        {"perf_event_open", EPERM,
         [] { return errnoOf(::syscall(SYS_perf_event_open, nullptr, 0, -1, -1, 0)); }},
        {"setns", EPERM, [] { return errnoOf(::syscall(SYS_setns, -1, 0)); }},
        {"ioctl(TIOCSTI)", EPERM, [] { return errnoOf(::syscall(SYS_ioctl, -1, TIOCSTI, nullptr)); }},
        {"clone3", ENOSYS, [] { return errnoOf(::syscall(SYS_clone3, nullptr, 0)); }},
    };
    std::vector<std::string> seen;
    bool ok = true;
    for (const auto& probe : probes) {
        const int answer = probe.call();
        const bool filtered = answer == probe.filtered;
        ok = ok && filtered;
        seen.push_back(std::string(probe.name) + ": " + errnoName(answer) + (filtered ? "" : " (not the filter's)"));
    }
    return {"seccomp_filter_denies", ok, joined(seen) + " (arguments that fail harmlessly without a filter)"};
}

Check landlockEnforced()
{
    const std::string path = "/tmp/.moat-probe-landlock-" + std::to_string(::getpid());
    const int result = ::mknod(path.c_str(), S_IFCHR | 0600, ::makedev(1, 3));
    const int error = result == 0 ? 0 : errno;
    if (result == 0) {
        ::unlink(path.c_str());  // only global root gets here; never inside a sandbox
    }
    const bool ok = error == EACCES;
    return {"landlock_enforced", ok,
            "mknod of a character device in /tmp: " + errnoName(error) +
                (ok ? " (refused by Landlock before the capability check)"
                    : " (not refused by Landlock: its file system rights are not enforced here)")};
}

Check mountView(const std::string& workspace)
{
    const char* home = std::getenv("HOME");
    // /dev: its device files are writable by nature, and Landlock lets
    // nothing new be created there.
    const std::vector<std::string> writablePlaces = {workspace, "/tmp", "/dev", home ? home : "", "/proc"};
    std::vector<std::string> writable, unexpected, withSuid;
    const auto mounts = currentMounts();
    for (const auto& mount : mounts) {
        if (!mount.hasOption("nosuid")) {
            withSuid.push_back(mount.mountPoint);
        }
        if (mount.hasOption("ro")) {
            continue;
        }
        writable.push_back(mount.mountPoint);
        if (!isWithinAny(mount.mountPoint, writablePlaces)) {
            unexpected.push_back(mount.mountPoint);
        }
    }
    const bool ok = unexpected.empty() && withSuid.empty() && !mounts.empty();
    std::string detail = std::to_string(mounts.size()) + " mounts; writable: " + joined(writable);
    if (!unexpected.empty()) {
        detail += "; writable beyond the sandbox's places: " + joined(unexpected);
    }
    if (!withSuid.empty()) {
        detail += "; without nosuid: " + joined(withSuid);
    }
    return {"mount_view", ok, detail};
}

Check keychainUnreachable(const std::string& hostBus)
{
    if (hostBus.empty()) {
        return {"keychain_unreachable", true, "the host has no session bus (no keychain to reach)"};
    }
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    socklen_t length = 0;
    std::string where;
    const auto comma = hostBus.find(',');
    const std::string first = hostBus.substr(0, comma);
    if (first.rfind("unix:path=", 0) == 0) {
        where = first.substr(10);
        if (where.size() >= sizeof address.sun_path) {
            return {"keychain_unreachable", false, "the host's bus path is too long to try: " + where};
        }
        std::memcpy(address.sun_path, where.data(), where.size());
        length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + where.size() + 1);
    } else if (first.rfind("unix:abstract=", 0) == 0) {
        const std::string name = first.substr(14);
        where = "@" + name;
        if (name.size() + 1 > sizeof address.sun_path) {
            return {"keychain_unreachable", false, "the host's bus name is too long to try: " + where};
        }
        std::memcpy(address.sun_path + 1, name.data(), name.size());
        length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    } else {
        return {"keychain_unreachable", false, "the host's bus address is of a kind the probe cannot try: " + first};
    }
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return {"keychain_unreachable", false, std::string("socket: ") + std::strerror(errno)};
    }
    // connect() on a Unix socket stays on this machine; nothing is written.
    const int result = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), length);
    const int error = result == 0 ? 0 : errno;
    ::close(fd);
    if (result == 0) {
        return {"keychain_unreachable", false, "the host's session bus " + where + " accepts a connection from here"};
    }
    return {"keychain_unreachable", true, "the host's session bus " + where + ": " + std::strerror(error)};
}

}  // namespace moat::probe
