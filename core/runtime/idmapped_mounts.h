// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"

#include <sys/types.h>

#include <map>
#include <string>
#include <utility>

namespace moat {

// Root mode only (needs CAP_SYS_ADMIN in the initial user namespace).
//
// Prepares detached copies of host directories in which the directory's
// owner appears as the agent's host uid: the agent (an unprivileged uid)
// works in them as if it owned them, and every file it creates is stored
// on disk as belonging to the directory's real owner.
class IdmappedMounts {
public:
    IdmappedMounts(uid_t agentHostUid, gid_t agentHostGid);

    Result<UniqueFd> prepare(const std::string& path, bool readOnly);

private:
    Result<int> usernsFor(uid_t ownerUid, gid_t ownerGid);

    uid_t agentUid_;
    gid_t agentGid_;
    std::map<std::pair<uid_t, gid_t>, UniqueFd> userns_;
};

}  // namespace moat
