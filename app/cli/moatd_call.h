// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "moatd_client.h"

#include <functional>
#include <optional>

namespace moat::cli {

// One call to moatd when it is there (running, or activatable on the
// session bus): its value; nullopt when moatd is not there, so that the
// command can do without it. An error when the bus refuses us or moatd
// answers with one (its message, and the D-Bus error's name).
Result<std::optional<std::string>> callMoatd(const std::function<MoatdReply(MoatdClient&)>& call);

}  // namespace moat::cli
