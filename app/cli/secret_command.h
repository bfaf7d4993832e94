// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace moat::cli {

// `moat secret set NAME [--host H]... [--header H]...` (the value on stdin),
// `moat secret ls [--json]`, `moat secret rm NAME` (docs/secrets.md).
//
// Through moatd when it is on the session bus (SetSecret, ListSecrets,
// RemoveSecret), else straight to the OS keychain (keychain/secret_book.h):
// the same keychain entries and the same <config dir>/secrets.json either
// way. No keychain, no secret: there is no plain-text fallback. Everything
// is checked before anything is stored. Exit status: 0, or 125 with what
// went wrong and what to do.
class SecretCommand {
public:
    explicit SecretCommand(CLI::App& parent);

    bool selected() const { return secret_->parsed(); }
    int execute();

private:
    int set();
    int list();
    int remove();
    // The value from stdin: one trailing newline removed, at most
    // LockedSecret::kMaxSize bytes; not echoed when stdin is a terminal.
    Result<std::string> readValue() const;

    CLI::App* secret_ = nullptr;
    CLI::App* set_ = nullptr;
    CLI::App* ls_ = nullptr;
    CLI::App* rm_ = nullptr;
    std::string name_;
    std::vector<std::string> hosts_;
    std::vector<std::string> headers_;
    bool json_ = false;
};

}  // namespace moat::cli
