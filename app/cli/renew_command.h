// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace moat::cli {

// `moat renew ID [--ttl D]`: the session now expires D from now (default:
// its own --ttl), recorded as ttl.renew with who asked. Through moatd when
// it is there; else straight to the session's supervisor socket.
class RenewCommand {
public:
    explicit RenewCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    int execute();

private:
    CLI::App* command_ = nullptr;
    std::string session_;
    std::string ttl_;
};

}  // namespace moat::cli
