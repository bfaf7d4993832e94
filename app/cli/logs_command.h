// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace moat::cli {

// `moat logs ID [--follow] [--json]`: a session's timeline, read directly
// from its events.jsonl (with or without moatd). One readable line per
// event, or the lines as recorded with --json; --follow waits for new
// events until session.end (or until the session's supervisor is gone).
class LogsCommand {
public:
    explicit LogsCommand(CLI::App& parent);

    bool selected() const { return command_->parsed(); }
    int execute();

private:
    CLI::App* command_ = nullptr;
    std::string session_;
    bool follow_ = false;
    bool json_ = false;
};

}  // namespace moat::cli
