// SPDX-License-Identifier: Apache-2.0
#include "stop_command.h"

#include "session_control.h"
#include "supervisor_control.h"

#include <iostream>

namespace moat::cli {

StopCommand::StopCommand(CLI::App& parent)
{
    command_ = parent.add_subcommand("stop", "Stop a running session now");
    command_->add_option("session", session_, "Session id, unique id prefix, or name")->required()->type_name("ID");
    command_->footer("The command gets SIGTERM, then SIGKILL after a grace period; recorded as session.stop.");
}

int StopCommand::execute()
{
    SessionControlRequest request;
    request.session = session_;
    request.viaMoatd = [this](MoatdClient& moatd) { return moatd.stopSession(session_); };
    request.message = {{"t", "stop"}, {"by", SupervisorControl::caller()}};
    request.awaited = "ended";
    // The supervisor's grace before SIGKILL is 5 s; its last records follow.
    request.timeout = std::chrono::seconds(20);
    auto stopped = controlSession(request);
    if (!stopped) {
        std::cerr << "moat: cannot stop " << session_ << ": " << stopped.error().message() << "\n";
        return 125;
    }
    std::cout << "stopped " << stopped->session << "\n";
    return 0;
}

}  // namespace moat::cli
