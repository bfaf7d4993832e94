// SPDX-License-Identifier: Apache-2.0
#include "runtime/mount_ops.h"

#include <fcntl.h>
#include <sys/mount.h>

#include <cerrno>

namespace moat::mounts {

Result<UniqueFd> cloneTree(int sourceFd, bool recursive, unsigned attributes)
{
    unsigned flags = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH;
    if (recursive) {
        flags |= AT_RECURSIVE;
    }
    UniqueFd tree(::open_tree(sourceFd, "", flags));
    if (!tree) {
        return Error::fromErrno("cannot copy a mount tree", errno);
    }
    if (auto set = setAttributes(tree.get(), attributes, recursive); !set) {
        return set.error();
    }
    return tree;
}

Status setAttributes(int treeFd, unsigned attributes, bool recursive)
{
    if (attributes == 0) {
        return {};
    }
    mount_attr attr{};
    attr.attr_set = attributes;
    const unsigned flags = AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0);
    if (::mount_setattr(treeFd, "", flags, &attr, sizeof attr) != 0) {
        return Error::fromErrno("cannot set mount attributes", errno);
    }
    return {};
}

Result<UniqueFd> freshFilesystem(const std::string& type,
                                 const std::vector<std::pair<std::string, std::string>>& options,
                                 unsigned attributes)
{
    UniqueFd context(::fsopen(type.c_str(), FSOPEN_CLOEXEC));
    if (!context) {
        return Error::fromErrno("cannot open a new " + type + " file system", errno);
    }
    for (const auto& [key, value] : options) {
        if (::fsconfig(context.get(), FSCONFIG_SET_STRING, key.c_str(), value.c_str(), 0) != 0) {
            return Error::fromErrno("cannot set " + key + "=" + value + " on " + type, errno);
        }
    }
    if (::fsconfig(context.get(), FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) != 0) {
        return Error::fromErrno("cannot create the " + type + " file system", errno);
    }
    UniqueFd mount(::fsmount(context.get(), FSMOUNT_CLOEXEC, attributes));
    if (!mount) {
        return Error::fromErrno("cannot mount the " + type + " file system", errno);
    }
    return mount;
}

Status attach(int treeFd, int targetFd, const std::string& description)
{
    if (::move_mount(treeFd, "", targetFd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0) {
        return Error::fromErrno("cannot mount " + description, errno);
    }
    return {};
}

}  // namespace moat::mounts
