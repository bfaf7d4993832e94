// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"

#include <string>
#include <vector>

namespace moat::mounts {

// Attribute sets for mount_setattr(2).
inline constexpr unsigned kReadOnly = 0x00000001;   // MOUNT_ATTR_RDONLY
inline constexpr unsigned kNoSuid = 0x00000002;     // MOUNT_ATTR_NOSUID
inline constexpr unsigned kNoDev = 0x00000004;      // MOUNT_ATTR_NODEV
inline constexpr unsigned kNoExec = 0x00000008;     // MOUNT_ATTR_NOEXEC

// A detached copy of the mount tree at `sourceFd` (an O_PATH fd), with the
// given attributes set; `recursive` includes the mounts below it.
Result<UniqueFd> cloneTree(int sourceFd, bool recursive, unsigned attributes);

// Sets attributes on a detached tree (used for idmapped trees).
Status setAttributes(int treeFd, unsigned attributes, bool recursive);

// A new detached file system instance, e.g. ("tmpfs", {{"mode","1777"}}).
Result<UniqueFd> freshFilesystem(const std::string& type,
                                 const std::vector<std::pair<std::string, std::string>>& options,
                                 unsigned attributes);

// Attaches a detached tree onto the directory or file `targetFd`.
Status attach(int treeFd, int targetFd, const std::string& description);

}  // namespace moat::mounts
