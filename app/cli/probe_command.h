// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace moat::cli {

// `moat probe [--host] [--json]`: grades the seven criteria of docs/probe.md
// from read-only checks, inside a fresh default sandbox as its agent sees it
// (sandbox_probe_run.h), or with --host for this machine as the current user.
// A readable report card by default; --json prints CLI.md's shape. Sandbox
// flags (--net, --allow-host, --sudo, --allow-degraded) probe a sandbox
// weakened on purpose.
class ProbeCommand {
public:
    explicit ProbeCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    int execute();

private:
    CLI::App* command_ = nullptr;
    bool host_ = false;
    bool json_ = false;
    std::string net_;
    std::vector<std::string> allowHosts_;
    bool sudo_ = false;
    std::vector<std::string> allowDegraded_;
    bool embedded_ = false;

    std::vector<std::string> runFlags() const;
};

}  // namespace moat::cli
