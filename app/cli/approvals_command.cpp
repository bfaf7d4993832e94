// SPDX-License-Identifier: Apache-2.0
#include "approvals_command.h"

#include "approval_notice.h"
#include "moatd_call.h"
#include "terminal_text.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace moat::cli {

namespace {

constexpr const char* kNeedsMoatd =
    "approvals need moatd, and it is not reachable on the D-Bus session bus. A session started without it "
    "(embedded mode) answers its agent's requests with a deny at once.\n"
    "Start moatd: installed packages start it on demand through D-Bus activation; from a build tree run "
    "'build/bin/moatd &' in a desktop session (or under dbus-run-session), then start sessions with moat run";

std::string rawText(const nlohmann::json& value)
{
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_array()) {
        std::string joined;
        for (const auto& item : value) {
            joined += (joined.empty() ? "" : " ") + rawText(item);
        }
        return joined;
    }
    return value.is_null() ? std::string() : value.dump();
}

// What the agent wrote or chose, as the terminal may show it.
std::string text(const nlohmann::json& value)
{
    return terminalSafe(rawText(value));
}

void printApprovals(const nlohmann::json& approvals)
{
    if (!approvals.is_array() || approvals.empty()) {
        std::cout << "no pending requests\n";
        return;
    }
    for (const auto& request : approvals) {
        if (request.value("kind", nlohmann::json()) == "http") {
            // A request the user's own ask rule holds at the proxy.
            std::cout << text(request.value("id", nlohmann::json())) << "  session "
                      << text(request.value("session", nlohmann::json())) << "  "
                      << httpRequestLine(request.value("http", nlohmann::json())) << "\n    requested "
                      << text(request.value("requested", nlohmann::json())) << ", expires "
                      << text(request.value("expires", nlohmann::json())) << "\n";
            continue;
        }
        std::cout << text(request.value("id", nlohmann::json())) << "  session "
                  << text(request.value("session", nlohmann::json())) << "  asks for "
                  << text(request.value("flags", nlohmann::json())) << "\n";
        if (const std::string command = text(request.value("command", nlohmann::json())); !command.empty()) {
            std::cout << "    command: " << command << "\n";
        }
        // The agent's words: quoted, never taken as instructions.
        std::cout << "    reason: " << terminalSafe(nlohmann::json(rawText(request.value("reason", nlohmann::json()))).dump())
                  << "\n    requested " << text(request.value("requested", nlohmann::json())) << ", expires "
                  << text(request.value("expires", nlohmann::json())) << "\n";
    }
    std::cout << "Answer with 'moat approve RID' or 'moat deny RID'.\n";
}

}  // namespace

ApprovalsCommand::ApprovalsCommand(CLI::App& parent)
{
    list_ = parent.add_subcommand("approvals",
                                  "Requests waiting for an answer: escalations and HTTP requests an ask rule holds "
                                  "(needs moatd)");
    list_->add_flag("--json", json_,
                    "An array of {id,session,kind,flags,command,reason,requested,expires}; kind http has "
                    "http:{method,host,port,path,rule,refs} instead of flags, command and reason");
    approve_ = parent.add_subcommand("approve",
                                     "Approve a pending request: its successor sandbox starts, or the held HTTP "
                                     "request is forwarded");
    approve_->add_option("request", requestId_, "The request id (see moat approvals)")->required()->type_name("RID");
    deny_ = parent.add_subcommand("deny", "Deny a pending request");
    deny_->add_option("request", requestId_, "The request id (see moat approvals)")->required()->type_name("RID");
}

int ApprovalsCommand::execute()
{
    return list_->parsed() ? list() : answer(approve_->parsed());
}

Result<std::string> ApprovalsCommand::ask(const std::function<MoatdReply(MoatdClient&)>& call)
{
    auto reply = callMoatd(call);
    if (!reply) {
        return reply.error();
    }
    if (!reply.value()) {
        return Error{kNeedsMoatd};
    }
    return *reply.value();
}

int ApprovalsCommand::list()
{
    auto reply = ask([](MoatdClient& moatd) { return moatd.listApprovals(); });
    if (!reply) {
        std::cerr << "moat: " << reply.error().what << "\n";
        return 125;
    }
    const auto approvals = nlohmann::json::parse(reply.value(), nullptr, false);
    if (json_) {
        std::cout << (approvals.is_discarded() ? reply.value() : approvals.dump(2)) << "\n";
    } else {
        printApprovals(approvals);
    }
    return 0;
}

int ApprovalsCommand::answer(bool approve)
{
    auto reply = ask([this, approve](MoatdClient& moatd) { return moatd.answerApproval(requestId_, approve, "cli"); });
    if (!reply) {
        std::cerr << "moat: " << reply.error().what << "\n";
        return 125;
    }
    std::cout << (approve ? "approved " : "denied ") << requestId_ << "\n";
    return 0;
}

}  // namespace moat::cli
