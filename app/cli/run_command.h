// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "policy/run_request.h"

#include <CLI/CLI.hpp>

namespace moat::cli {

// `moat run`: the flags of CLI.md's table, parsed into a RunRequest.
class RunCommand {
public:
    explicit RunCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    // Exit status for `moat run` (CLI.md): the command's, or 125/126/127.
    int execute(int verbosity);

private:
    CLI::App* command_ = nullptr;
    RunRequest request_;
    std::string jsonEvents_;
    bool embedded_ = false;
};

}  // namespace moat::cli
