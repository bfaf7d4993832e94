// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace moat::cli {

// `moat request [--allow-host H]... [--sudo] [--docker] [--net open]
// [--reason TEXT] [--timeout N] [-- COMMAND...]`, run inside a sandbox: asks
// for a successor sandbox with those flags added (docs/escalation.md). The
// running sandbox never gains anything. POSTs to $MOAT_API/v1/requests and
// waits for the decision. Exit status: 0 approved, 3 denied, 4 timed out,
// 125 when the request could not be made or answered (no MOAT_API, the
// endpoint unreachable, a malformed request or answer).
class RequestCommand {
public:
    static constexpr int kDenied = 3;
    static constexpr int kTimedOut = 4;

    explicit RequestCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    int execute();

private:
    CLI::App* command_ = nullptr;
    std::vector<std::string> allowHosts_;
    bool sudo_ = false;
    bool docker_ = false;
    std::string net_;
    std::string reason_;
    int timeout_ = 0;
    std::vector<std::string> commandArgs_;
};

}  // namespace moat::cli
