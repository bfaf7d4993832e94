// SPDX-License-Identifier: Apache-2.0
#include "running_session.h"

#include "session_directory.h"

namespace moat::cli {

Result<RunningSession> runningSession(const std::string& idPrefixOrName)
{
    const SessionDirectory sessions(MoatPaths::fromEnvironment());
    auto entry = sessions.resolve(idPrefixOrName);
    if (!entry) {
        return entry.error();
    }
    if (!entry->running()) {
        return Error{"session " + entry->id + " is not running (" + entry->state + ")", 0,
                     "See 'moat ps' for the running sessions, 'moat logs " + entry->id + "' for what happened"};
    }
    return RunningSession{sessions.paths(), entry->id};
}

}  // namespace moat::cli
