// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "policy/sandbox_spec.h"

#include <nlohmann/json_fwd.hpp>

namespace moat {

// The wire and disk form of a SandboxSpec (spec.json in a session's state
// directory, and the first message from a client to moat-supervisor).
nlohmann::json specToJson(const SandboxSpec& spec);
Result<SandboxSpec> specFromJson(const nlohmann::json& json);

}  // namespace moat
