// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace moat::cli {

// `moat stop ID`: stops a running session now (SIGTERM, a grace period,
// SIGKILL), recorded as session.stop with who asked. Through moatd when it
// is there; else straight to the session's supervisor socket.
class StopCommand {
public:
    explicit StopCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    int execute();

private:
    CLI::App* command_ = nullptr;
    std::string session_;
};

}  // namespace moat::cli
