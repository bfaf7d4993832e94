// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

namespace moat::cli {

// `moat probe --host [--json]`: grades the seven criteria of docs/probe.md
// for this machine as the current user, from read-only checks. A readable
// report card by default; --json prints CLI.md's shape. Without --host (the
// probe inside a fresh sandbox) it is not built yet and says so (125).
class ProbeCommand {
public:
    explicit ProbeCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    int execute();

private:
    CLI::App* command_ = nullptr;
    bool host_ = false;
    bool json_ = false;
};

}  // namespace moat::cli
