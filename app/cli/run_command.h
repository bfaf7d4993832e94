// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "attached_session.h"
#include "base/error.h"
#include "base/moat_paths.h"
#include "policy/run_request.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace moat::cli {

class MoatdClient;

// `moat run`: the flags of CLI.md's table, parsed into a RunRequest.
class RunCommand {
public:
    explicit RunCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    // Exit status for `moat run` (CLI.md): the command's, or 125/126/127.
    int execute(int verbosity);

private:
    // Through moatd (StartSession), attached until the last session ends;
    // nullopt when moatd turned out not to be there after all.
    std::optional<int> runThroughMoatd(MoatdClient& moatd, const std::string& specJson,
                                       const std::string& sessionId, const MoatPaths& paths,
                                       const AttachedSession::SignalBlock& signals);
    // This process becomes the session's supervisor.
    int runEmbedded(const MoatPaths& paths, const std::string& specJson, const std::vector<std::string>& secretNames,
                    const std::string& eventsPath, int verbosity);

    CLI::App* command_ = nullptr;
    RunRequest request_;
    std::string jsonEvents_;
    std::string profile_;  // --profile NAME[=VALUE]
    CLI::Option* netOption_ = nullptr;
    CLI::Option* ttlOption_ = nullptr;

    // --profile: its flags merged under the command line's (docs/rules.md).
    Status applyProfile();
    bool embedded_ = false;
};

}  // namespace moat::cli
