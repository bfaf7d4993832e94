// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/moat_paths.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace moat::cli {

// Talks to a running session's supervisor directly, on the socket where a
// restarted moatd re-attaches (MoatPaths::supervisorSocket, protocol.md):
// how `moat stop` and `moat renew` work when moatd is not there. The
// supervisor accepts only its own uid and one parent at a time.
class SupervisorControl {
public:
    // The supervisor's answer of type `awaited` to `message` (after its
    // hello); an error when the socket is missing, busy or silent.
    static Result<nlohmann::json> ask(const MoatPaths& paths, const std::string& sessionId,
                                      const nlohmann::json& message, const std::string& awaited,
                                      std::chrono::milliseconds timeout);
    // {"uid","user","client":"cli"}: who acts, for the record.
    static nlohmann::json caller();
};

}  // namespace moat::cli
