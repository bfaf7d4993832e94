// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/moat_paths.h"
#include "policy/sandbox_spec.h"

#include <nlohmann/json.hpp>

#include <string>

namespace moat {

// A session's directory under moat's state dir (never inside a sandbox):
//   spec.json     the SandboxSpec it started from
//   events.jsonl  its timeline (EventLog)
//   status.json   state, exit code and end time, rewritten atomically
class SessionStore {
public:
    static Result<SessionStore> create(const MoatPaths& paths, const SandboxSpec& spec);

    const std::string& directory() const { return directory_; }
    std::string eventsPath() const { return directory_ + "/events.jsonl"; }

    Status writeStatus(const nlohmann::json& status) const;

private:
    Status writeAtomically(const std::string& name, const std::string& content) const;

    std::string directory_;
};

}  // namespace moat
