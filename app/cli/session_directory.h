// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/moat_paths.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace moat::cli {

// One session as its directory under moat's state dir tells it (spec.json,
// status.json, events.jsonl). Read directly, with or without moatd: these
// files are the session's own account of itself, written by its supervisor.
struct SessionEntry {
    std::string id;
    std::string directory;
    nlohmann::json spec;    // spec.json, or an empty object
    nlohmann::json status;  // status.json, or an empty object
    // status.json's state, except that "running" whose supervisor is gone
    // reads "failed" (it crashed or was killed before it could say so).
    std::string state;
    int supervisorPid = 0;  // 0 when not known or not running

    bool running() const { return state == "running"; }
    std::string name() const;
    std::string eventsPath() const { return directory + "/events.jsonl"; }
    // CLI.md's `moat ps --json` element: {"id","name","state","image",
    // "flags","started","expires","exit_code"} (exit_code null while running).
    nlohmann::json toPsJson() const;
};

class SessionDirectory {
public:
    explicit SessionDirectory(MoatPaths paths) : paths_(std::move(paths)) {}

    // Every session, oldest first.
    std::vector<SessionEntry> list() const;
    // A session id, a unique prefix of one, or a session name (the newest
    // session of that name). The error says which sessions match, or that
    // none does.
    Result<SessionEntry> resolve(const std::string& idPrefixOrName) const;
    // One session by its exact id; reads what is there now.
    Result<SessionEntry> read(const std::string& id) const;

    const MoatPaths& paths() const { return paths_; }

private:
    MoatPaths paths_;
};

// Whether pid is a live moat-supervisor (not a zombie, not a reused pid).
bool isLiveSupervisor(int pid);

}  // namespace moat::cli
