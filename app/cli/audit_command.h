// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace moat::cli {

// `moat audit verify ID|--all`: checks sessions' records (docs/records.md).
// Exit status (CLI.md): 0 when every log checked is intact (a running or
// crashed session's unsealed log, and a torn last line, included: they are
// said, not failed); 1 when any log is broken or cannot be checked, with the
// first bad line of each; 125 for a bad argument (no such session).
class AuditCommand {
public:
    explicit AuditCommand(CLI::App& parent);

    bool selected() const { return audit_->parsed(); }
    int execute();

private:
    CLI::App* audit_ = nullptr;
    CLI::App* verify_ = nullptr;
    std::string sessionId_;
    bool all_ = false;
};

}  // namespace moat::cli
