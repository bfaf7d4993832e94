// SPDX-License-Identifier: Apache-2.0
#include "runtime/idmapped_mounts.h"

#include "runtime/fs_util.h"
#include "runtime/mount_ops.h"
#include "runtime/syscalls.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cerrno>
#include <string>

namespace moat {

IdmappedMounts::IdmappedMounts(uid_t agentHostUid, gid_t agentHostGid)
    : agentUid_(agentHostUid), agentGid_(agentHostGid)
{
}

Result<int> IdmappedMounts::usernsFor(uid_t ownerUid, gid_t ownerGid)
{
    const auto key = std::make_pair(ownerUid, ownerGid);
    if (auto found = userns_.find(key); found != userns_.end()) {
        return found->second.get();
    }
    int gate[2];
    if (::pipe2(gate, O_CLOEXEC) != 0) {
        return Error::fromErrno("cannot create a pipe", errno);
    }
    UniqueFd gateRead(gate[0]);
    UniqueFd gateWrite(gate[1]);
    sys::CloneArgs args;
    args.flags = CLONE_NEWUSER;
    args.exitSignal = SIGCHLD;
    const long pid = sys::clone3(args);
    if (pid < 0) {
        return Error::fromErrno("cannot create a user namespace for an idmapped mount", errno);
    }
    if (pid == 0) {
        // Only exists so that its user namespace can be named; waits for the
        // parent to close the pipe.
        gateWrite.reset();
        char byte;
        (void)::read(gateRead.get(), &byte, 1);
        ::_exit(0);
    }
    gateRead.reset();
    const auto child = static_cast<pid_t>(pid);
    // Inside this namespace the owner's ids; outside, the agent's.
    Status mapped = fs::writeProcFile(child, "uid_map", std::to_string(ownerUid) + " " + std::to_string(agentUid_) + " 1\n");
    if (mapped) {
        mapped = fs::writeProcFile(child, "gid_map", std::to_string(ownerGid) + " " + std::to_string(agentGid_) + " 1\n");
    }
    UniqueFd ns;
    if (mapped) {
        ns.reset(::open(("/proc/" + std::to_string(child) + "/ns/user").c_str(), O_RDONLY | O_CLOEXEC));
    }
    gateWrite.reset();
    ::waitpid(child, nullptr, 0);
    if (!mapped) {
        return mapped.error();
    }
    if (!ns) {
        return Error::fromErrno("cannot open the idmapping's user namespace", errno);
    }
    const int fd = ns.get();
    userns_.emplace(key, std::move(ns));
    return fd;
}

Result<UniqueFd> IdmappedMounts::prepare(const std::string& path, bool readOnly)
{
    auto source = fs::openCanonical(path, O_PATH);
    if (!source) {
        return source.error();
    }
    struct stat info {};
    if (::fstat(source->get(), &info) != 0) {
        return Error::fromErrno("cannot inspect " + path, errno);
    }
    auto userns = usernsFor(info.st_uid, info.st_gid);
    if (!userns) {
        return userns.error();
    }
    UniqueFd tree(::open_tree(source->get(), "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH));
    if (!tree) {
        return Error::fromErrno("cannot copy the mount of " + path, errno);
    }
    mount_attr attr{};
    attr.attr_set = MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (readOnly ? MOUNT_ATTR_RDONLY : 0);
    attr.userns_fd = static_cast<uint64_t>(userns.value());
    if (::mount_setattr(tree.get(), "", AT_EMPTY_PATH, &attr, sizeof attr) != 0) {
        return Error::fromErrno("cannot create an idmapped mount of " + path, errno,
                                "Its file system must support idmapped mounts (ext4, xfs, btrfs, tmpfs on Linux "
                                ">= 6.3); run moat as an ordinary user instead of root to avoid the need");
    }
    return tree;
}

}  // namespace moat
