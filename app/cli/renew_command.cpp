// SPDX-License-Identifier: Apache-2.0
#include "renew_command.h"

#include "policy/duration.h"
#include "session_control.h"
#include "supervisor_control.h"

#include <iostream>

namespace moat::cli {

RenewCommand::RenewCommand(CLI::App& parent)
{
    command_ = parent.add_subcommand("renew", "Push a running session's expiry out");
    command_->add_option("session", session_, "Session id, unique id prefix, or name")->required()->type_name("ID");
    command_->add_option("--ttl", ttl_, "Expire this long from now, e.g. 30m, 8h (default: the session's own --ttl)")
        ->type_name("DURATION");
}

int RenewCommand::execute()
{
    if (!ttl_.empty()) {
        auto parsed = Duration::parse(ttl_);
        if (!parsed) {
            std::cerr << "moat: --ttl: " << parsed.error().message() << "\n";
            return 125;
        }
        ttl_ = parsed->toString();
    }
    SessionControlRequest request;
    request.session = session_;
    request.viaMoatd = [this](MoatdClient& moatd) { return moatd.renewSession(session_, ttl_); };
    request.message = {{"t", "renew"}, {"ttl", ttl_}, {"by", SupervisorControl::caller()}};
    request.awaited = "renewed";
    auto renewed = controlSession(request);
    if (!renewed) {
        std::cerr << "moat: cannot renew " << session_ << ": " << renewed.error().message() << "\n";
        return 125;
    }
    // moatd returns the new expiry; the supervisor says {"t":"renewed","expires":...}.
    std::string expires = renewed->value;
    if (!renewed->viaMoatd) {
        expires = nlohmann::json::parse(renewed->value, nullptr, false).value("expires", std::string("?"));
    }
    std::cout << renewed->session << " expires " << expires << "\n";
    return 0;
}

}  // namespace moat::cli
