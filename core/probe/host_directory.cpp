// SPDX-License-Identifier: Apache-2.0
#include "probe/host_directory.h"

#include "probe/joined.h"
#include "probe/mount_table.h"

#include <climits>
#include <cstdlib>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace moat::probe {

namespace {

std::string parentOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

std::string canonical(const std::string& path)
{
    char resolved[PATH_MAX];
    return ::realpath(path.c_str(), resolved) ? std::string(resolved) : std::string();
}

// The mount of this namespace that holds path: the longest mount point
// containing it (the last one listed wins when mounts are stacked).
const MountEntry* mountHolding(const std::vector<MountEntry>& mounts, const std::string& path)
{
    const MountEntry* best = nullptr;
    for (const auto& mount : mounts) {
        if (isPathWithin(path, mount.mountPoint) &&
            (!best || mount.mountPoint.size() >= best->mountPoint.size())) {
            best = &mount;
        }
    }
    return best;
}

std::string joinedPath(const std::string& base, const std::string& rest)
{
    if (rest.empty()) {
        return base;
    }
    return base == "/" ? rest : base + rest;
}

// What this process may do in a directory it reached.
long accessLevel(const std::string& path)
{
    if (::access(path.c_str(), W_OK) == 0) {
        return 2;
    }
    return ::access(path.c_str(), R_OK) == 0 ? 1 : 0;
}

}  // namespace

std::optional<HostDirectory> HostDirectory::identify(const std::string& path)
{
    std::string existing = path;
    while (existing != "/" && ::access(existing.c_str(), F_OK) != 0) {
        existing = parentOf(existing);
    }
    existing = canonical(existing);
    struct stat info {};
    if (existing.empty() || ::stat(existing.c_str(), &info) != 0) {
        return std::nullopt;
    }
    HostDirectory directory;
    directory.path = existing;
    directory.major = ::major(info.st_dev);
    directory.minor = ::minor(info.st_dev);
    directory.inode = info.st_ino;
    const auto mounts = currentMounts();
    if (const MountEntry* mount = mountHolding(mounts, existing)) {
        const std::string below = existing.substr(mount->mountPoint == "/" ? 0 : mount->mountPoint.size());
        directory.pathInFileSystem = joinedPath(mount->root, below == "/" ? "" : below);
    }
    return directory;
}

Check hostDirectoryReach(const std::string& name, const HostDirectory& directory)
{
    const std::string what = directory.path + " (device " + std::to_string(directory.major) + ":" +
                             std::to_string(directory.minor) + ", inode " + std::to_string(directory.inode) + ")";
    auto reached = [&](const std::string& where) -> std::optional<Check> {
        struct stat info {};
        if (::stat(where.c_str(), &info) != 0 || info.st_ino != directory.inode ||
            ::major(info.st_dev) != directory.major || ::minor(info.st_dev) != directory.minor) {
            return std::nullopt;
        }
        const long level = accessLevel(where);
        const std::string how = level == 2 ? "writable" : level == 1 ? "readable" : "visible but not readable";
        return Check{name, level == 0, what + " is reachable at " + where + ": " + how, level};
    };
    if (auto found = reached(directory.path)) {
        return *found;
    }
    if (directory.pathInFileSystem.empty()) {
        // Fail closed: without its place in the file system, no other mount
        // can be ruled out.
        return {name, false, what + " is not at its path here; other mounts could not be ruled out", 1};
    }
    size_t sameFileSystem = 0;
    {
        for (const auto& mount : currentMounts()) {
            if (mount.major != directory.major || mount.minor != directory.minor) {
                continue;
            }
            ++sameFileSystem;
            if (!isPathWithin(directory.pathInFileSystem, mount.root)) {
                continue;
            }
            const std::string rest = directory.pathInFileSystem.substr(mount.root == "/" ? 0 : mount.root.size());
            if (auto found = reached(joinedPath(mount.mountPoint, rest))) {
                return *found;
            }
        }
    }
    return {name, true,
            what + " is not at its path here, and none of the " + std::to_string(sameFileSystem) +
                " mounts of its file system here shows it",
            0};
}

}  // namespace moat::probe
