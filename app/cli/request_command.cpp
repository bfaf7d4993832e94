// SPDX-License-Identifier: Apache-2.0
#include "request_command.h"

#include "api_post.h"
#include "policy/escalation_request.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <iostream>

namespace moat::cli {

namespace {

constexpr int kDefaultTimeout = 120;
constexpr int kMaxTimeout = 600;
// Beyond the request's own deadline, for the supervisor to answer.
constexpr std::chrono::seconds kAnswerSlack{30};

std::string text(const nlohmann::json& body, const char* field)
{
    const auto found = body.find(field);
    return found != body.end() && found->is_string() ? found->get<std::string>() : std::string();
}

// Who decided, as one phrase: "by alice (cli)", "by policy auto".
std::string decider(const nlohmann::json& body)
{
    const auto by = body.find("by");
    if (by == body.end() || !by->is_object()) {
        return {};
    }
    if (const std::string policy = text(*by, "policy"); !policy.empty()) {
        return " by policy " + policy;
    }
    std::string who = text(*by, "user");
    if (who.empty() && by->contains("uid") && (*by)["uid"].is_number_integer()) {
        who = "uid " + std::to_string((*by)["uid"].get<long long>());
    }
    const std::string client = text(*by, "client");
    return who.empty() ? std::string() : " by " + who + (client.empty() ? "" : " (" + client + ")");
}

}  // namespace

RequestCommand::RequestCommand(CLI::App& parent)
{
    command_ = parent.add_subcommand("request", "From inside a sandbox: ask for a successor sandbox with more flags");
    command_->footer(
        "Nothing widens inside the running sandbox: when the request is approved, a successor sandbox with the\n"
        "added flags starts once this session's command exits (running COMMAND, or the same command again).\n"
        "Exit status: 0 approved; 3 denied; 4 no answer in time (a deny); 125 when the request could not be made.");
    command_->add_option("--allow-host", allowHosts_, "Ask for egress to HOST[:PORT] (repeatable)")
        ->type_name("HOST[:PORT]")
        ->allow_extra_args(false);
    command_->add_flag("--sudo", sudo_, "Ask for root inside the sandbox's own user namespace");
    command_->add_flag("--docker", docker_, "Ask for a container engine inside the sandbox");
    command_->add_option("--net", net_, "open: ask for the host's network (no egress control)")->type_name("open");
    command_->add_option("--reason", reason_, "Why, in your words; shown to whoever decides, and recorded")
        ->type_name("TEXT");
    command_
        ->add_option("--timeout", timeout_,
                     "Seconds to wait for a decision, 1 to 600 (default 120); no answer is a deny")
        ->type_name("N");
    command_->add_option("command", commandArgs_, "The successor's command, after -- (default: the same again)")
        ->type_name("COMMAND");
    command_->positionals_at_end(true);
}

int RequestCommand::execute()
{
    const char* api = std::getenv("MOAT_API");
    if (!api || !*api) {
        const char* session = std::getenv("MOAT_SESSION");
        if (session && *session) {
            // Inside, but --net none or --net open: no proxy, so no endpoint.
            std::cerr << "moat: this sandbox has no control endpoint (MOAT_API is not set: it runs with --net none "
                         "or --net open), so moat request cannot ask from here. Requests work in sandboxes started "
                         "with --net proxy, the default\n";
        } else {
            std::cerr << "moat: moat request works only inside a moat sandbox (MOAT_API is not set). To run with "
                         "more flags from outside, start a new session: moat run --help\n";
        }
        return 125;
    }
    if (!net_.empty() && net_ != "open") {
        std::cerr << "moat: --net " << net_ << " cannot be asked for: only --net open widens a sandbox\n";
        return 125;
    }
    if (timeout_ != 0 && (timeout_ < 1 || timeout_ > kMaxTimeout)) {
        std::cerr << "moat: --timeout must be from 1 to " << kMaxTimeout << " seconds\n";
        return 125;
    }
    nlohmann::json body = {{"allow_hosts", allowHosts_}, {"sudo", sudo_}, {"docker", docker_}};
    if (!net_.empty()) {
        body["net"] = net_;
    }
    if (!reason_.empty()) {
        body["reason"] = reason_;
    }
    if (!commandArgs_.empty()) {
        body["command"] = commandArgs_;
    }
    // Checked here as the supervisor will check it, so that a typo is told
    // before anyone is asked.
    if (auto checked = escalationRequestFromJson(body); !checked) {
        std::cerr << "moat: " << checked.error().message() << "\n";
        return 125;
    }
    const int timeout = timeout_ ? timeout_ : kDefaultTimeout;
    auto answer = postJson(api, "/v1/requests?timeout=" + std::to_string(timeout), body.dump(),
                           std::chrono::seconds(timeout) + kAnswerSlack);
    if (!answer) {
        std::cerr << "moat: " << answer.error().message() << "\n";
        return 125;
    }
    const auto reply = nlohmann::json::parse(answer->body, nullptr, false);
    if (reply.is_discarded() || !reply.is_object()) {
        std::cerr << "moat: the control endpoint answered " << answer->status << " with a body that is not JSON\n";
        return 125;
    }
    const std::string rid = text(reply, "rid");
    const std::string decision = text(reply, "decision");
    const std::string reason = text(reply, "reason");
    const std::string which = rid.empty() ? "" : " (request " + rid + ")";
    if (answer->status == 200 && decision == "approved") {
        std::cout << "approved" << which << decider(reply) << ": " << text(reply, "message") << "\n";
        return 0;
    }
    if ((answer->status == 403 || answer->status == 503) && decision == "denied") {
        std::cout << "denied" << which << decider(reply) << (reason.empty() ? "" : ": " + reason) << "\n";
        return kDenied;
    }
    if (answer->status == 408 && decision == "timed_out") {
        std::cout << "timed out" << which << ": no one answered within " << timeout << " s, which counts as a deny\n";
        return kTimedOut;
    }
    const std::string error = text(reply, "error");
    std::cerr << "moat: the request was not taken (HTTP " << answer->status
              << "): " << (error.empty() ? reply.dump().substr(0, 300) : error) << "\n";
    return 125;
}

}  // namespace moat::cli
