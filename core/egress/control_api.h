// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace moat {

// The control endpoint ($MOAT_API), served by the supervisor on the proxy's
// listener and never forwarded. The caller is the agent: it may read what
// its session is, never change it. Requests to widen a session arrive here
// later as requests for a person to decide, never as changes.
struct ControlResponse {
    unsigned status = 200;
    nlohmann::json body;
};

// method and path (with query) as the agent sent them; session is the
// session's description (id, name, flags, expires).
ControlResponse answerControlRequest(std::string_view method, std::string_view path, const nlohmann::json& session);

}  // namespace moat
