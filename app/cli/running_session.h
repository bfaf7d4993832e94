// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/moat_paths.h"

#include <string>

namespace moat::cli {

struct RunningSession {
    MoatPaths paths;
    std::string id;
};

// The running session that `idPrefixOrName` names (SessionDirectory::resolve);
// an error that says so when it names none, or one that is not running.
Result<RunningSession> runningSession(const std::string& idPrefixOrName);

}  // namespace moat::cli
