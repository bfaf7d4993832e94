// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

namespace moat::cli {

// `moat ps [--all] [--json]`: the sessions under moat's state dir, read
// directly from their directories (works with or without moatd). Without
// --all only running sessions; --json prints CLI.md's array.
class PsCommand {
public:
    explicit PsCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    int execute();

private:
    CLI::App* command_ = nullptr;
    bool all_ = false;
    bool json_ = false;
};

}  // namespace moat::cli
