// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"

#include <sys/types.h>

#include <string>

namespace moat::fs {

// Opens an absolute, canonical path refusing every symlink on the way: the
// caller resolved it once; if a component became a symlink since, someone is
// racing us and the open fails (ELOOP).
Result<UniqueFd> openCanonical(const std::string& path, int flags);

// Opens (creating as needed) the directory `relative` beneath `dirFd`, one
// component at a time, refusing symlinks and ".." so that nothing in a
// hostile tree can redirect where a mount lands.
Result<UniqueFd> makeDirsBeneath(int dirFd, const std::string& relative, mode_t mode = 0755);

// Creates an empty regular file as a mount point for a single-file bind.
Result<UniqueFd> makeFileBeneath(int dirFd, const std::string& relative);

Status writeFileAt(int dirFd, const std::string& name, const std::string& content, mode_t mode = 0644);

// Copies one regular file (at most maxBytes) from one directory to another.
Status copyFileAt(int fromDirFd, const std::string& name, int toDirFd, const std::string& toName,
                  size_t maxBytes);

// Writes one of /proc/PID/{uid_map,gid_map,setgroups} in a single write(2),
// as the kernel requires.
Status writeProcFile(pid_t pid, const char* name, const std::string& content);

// Splits "/a/b/c" into ("a/b", "c").
std::pair<std::string, std::string> splitParent(const std::string& path);

}  // namespace moat::fs
