// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "moatd_call.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace moat::cli {

// What `moat stop` and `moat renew` ask of a running session: the call to
// moatd when it is there, else the message for the session's supervisor
// (its socket, SupervisorControl) and the answer to wait for.
struct SessionControlRequest {
    std::string session;  // as the user named it: id, prefix or name
    std::function<MoatdReply(MoatdClient&)> viaMoatd;
    nlohmann::json message;
    std::string awaited;
    std::chrono::milliseconds timeout{10000};
};

struct SessionControlAnswer {
    std::string session;  // the id when resolved here, else as named
    std::string value;    // moatd's return value, or the supervisor's answer as JSON
    bool viaMoatd = false;
};

// Through moatd when it is there; else straight to the supervisor of the
// running session the request names. The error says what failed.
Result<SessionControlAnswer> controlSession(const SessionControlRequest& request);

}  // namespace moat::cli
