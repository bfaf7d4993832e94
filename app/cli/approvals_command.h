// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "moatd_call.h"

#include <CLI/CLI.hpp>

#include <string>

namespace moat::cli {

// `moat approvals [--json]`, `moat approve RID`, `moat deny RID`: the
// escalation requests moatd holds, and the answers to them, recorded with
// this user's uid and name and the client "cli". Only moatd brokers
// approvals: without it these fail and say how to start it.
class ApprovalsCommand {
public:
    explicit ApprovalsCommand(CLI::App& parent);

    bool selected() const { return list_->parsed() || approve_->parsed() || deny_->parsed(); }
    int execute();

private:
    // moatd's answer; an error that says how to start moatd when it is not there.
    static Result<std::string> ask(const std::function<MoatdReply(MoatdClient&)>& call);
    int list();
    int answer(bool approve);

    CLI::App* list_ = nullptr;
    CLI::App* approve_ = nullptr;
    CLI::App* deny_ = nullptr;
    bool json_ = false;
    std::string requestId_;
};

}  // namespace moat::cli
