// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

namespace moat::cli {

// `moat claims [--json]`: what a default sandbox promises on this build and
// this kernel, each claim with the `moat probe` check that verifies it
// (docs/claims.md). Reads the kernel's Landlock and seccomp support and
// moat's directories; changes nothing, starts no sandbox. A report for a
// reviewer by default; --json prints the stable shape of claims_report.h.
// Exit 0, or 125 when the report cannot be written.
class ClaimsCommand {
public:
    explicit ClaimsCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    int execute();

private:
    CLI::App* command_ = nullptr;
    bool json_ = false;
};

}  // namespace moat::cli
