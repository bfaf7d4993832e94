// SPDX-License-Identifier: Apache-2.0
#include "policy/escalation_request.h"

#include "egress/host_pattern.h"

#include <algorithm>
#include <string_view>

namespace moat {

namespace {

using nlohmann::json;

// Parts of the agent's text quoted back in an error: short, so that an error
// never echoes a whole hostile body.
constexpr std::size_t kQuoted = 80;

std::string excerpt(std::string_view text)
{
    std::string shown(text.substr(0, kQuoted));
    if (text.size() > kQuoted) {
        shown += "...";
    }
    return "'" + shown + "'";
}

// HostPattern's own message may quote the whole value: cut short too.
std::string bounded(const std::string& text)
{
    constexpr std::size_t kLongest = 300;
    return text.size() > kLongest ? text.substr(0, kLongest) + "..." : text;
}

Error malformed(std::string what)
{
    return Error{"malformed escalation request: " + std::move(what), 0,
                 "Send a JSON object with allow_hosts (strings), sudo, docker (true/false), net (\"open\"), "
                 "reason (a string) and command (strings); `moat request --help` shows the same as flags"};
}

std::string describeType(const json& value)
{
    return value.type_name();
}

Status readStrings(const json& value, const char* field, std::vector<std::string>& out, std::size_t maxItems)
{
    if (!value.is_array()) {
        return malformed(std::string(field) + " must be an array of strings, not " + describeType(value));
    }
    if (value.size() > maxItems) {
        return malformed(std::string(field) + " has " + std::to_string(value.size()) + " entries; at most " +
                         std::to_string(maxItems) + " are accepted");
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_string()) {
            return malformed(std::string(field) + "[" + std::to_string(i) + "] must be a string, not " +
                             describeType(value[i]));
        }
        out.push_back(value[i].get<std::string>());
    }
    return {};
}

Status readFlag(const json& value, const char* field, bool& out)
{
    if (!value.is_boolean()) {
        return malformed(std::string(field) + " must be true or false, not " + describeType(value));
    }
    out = value.get<bool>();
    return {};
}

Status checkHosts(const std::vector<std::string>& hosts)
{
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        auto pattern = HostPattern::parse(hosts[i]);
        if (!pattern) {
            return malformed("allow_hosts[" + std::to_string(i) + "] " + excerpt(hosts[i]) +
                             " is not a host moat can allow: " + bounded(pattern.error().what));
        }
    }
    return {};
}

Status checkCommand(const std::vector<std::string>& command, const EscalationRequestLimits& limits)
{
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < command.size(); ++i) {
        // An argv entry cannot hold a NUL byte: one here would be cut short
        // by exec, and the command run would not be the one approved.
        if (command[i].find('\0') != std::string::npos) {
            return malformed("command[" + std::to_string(i) + "] contains a NUL byte");
        }
        bytes += command[i].size() + 1;
    }
    if (bytes > limits.maxCommandBytes) {
        return malformed("command is " + std::to_string(bytes) + " bytes long; at most " +
                         std::to_string(limits.maxCommandBytes) + " are accepted");
    }
    if (!command.empty() && command.front().empty()) {
        return malformed("command[0] is empty; leave command out to run the same command again");
    }
    return {};
}

}  // namespace

std::vector<std::string> EscalationRequest::flagArguments() const
{
    std::vector<std::string> arguments;
    for (const auto& host : allowHosts) {
        arguments.insert(arguments.end(), {"--allow-host", host});
    }
    if (sudo) {
        arguments.emplace_back("--sudo");
    }
    if (docker) {
        arguments.emplace_back("--docker");
    }
    if (netOpen) {
        arguments.insert(arguments.end(), {"--net", "open"});
    }
    return arguments;
}

Result<EscalationRequest> escalationRequestFromJson(const json& body, const EscalationRequestLimits& limits)
{
    if (!body.is_object()) {
        return malformed("the body must be a JSON object, not " + describeType(body));
    }
    EscalationRequest request;
    for (const auto& [key, value] : body.items()) {
        Status read;
        if (key == "allow_hosts") {
            read = readStrings(value, "allow_hosts", request.allowHosts, limits.maxHosts);
        } else if (key == "sudo") {
            read = readFlag(value, "sudo", request.sudo);
        } else if (key == "docker") {
            read = readFlag(value, "docker", request.docker);
        } else if (key == "net") {
            // Only "open" widens anything; the other modes are narrower than
            // or equal to what every sandbox may already be given.
            if (!value.is_string() || value.get<std::string>() != "open") {
                read = malformed("net may only be \"open\" (ask for no net field otherwise)");
            } else {
                request.netOpen = true;
            }
        } else if (key == "reason") {
            if (!value.is_string()) {
                read = malformed("reason must be a string, not " + describeType(value));
            } else if (value.get_ref<const std::string&>().size() > limits.maxReason) {
                read = malformed("reason is longer than " + std::to_string(limits.maxReason) + " bytes");
            } else {
                request.reason = value.get<std::string>();
            }
        } else if (key == "command") {
            read = readStrings(value, "command", request.command, limits.maxCommandArgs);
        } else {
            read = malformed("unknown field " + excerpt(key) +
                             " (known: allow_hosts, sudo, docker, net, reason, command)");
        }
        if (!read) {
            return read.error();
        }
    }
    if (auto hosts = checkHosts(request.allowHosts); !hosts) {
        return hosts.error();
    }
    if (auto command = checkCommand(request.command, limits); !command) {
        return command.error();
    }
    if (request.empty()) {
        return malformed("it asks for nothing: name at least one of allow_hosts, sudo, docker or net");
    }
    return request;
}

json toJson(const EscalationRequest& request)
{
    json out = {{"allow_hosts", request.allowHosts},
                {"sudo", request.sudo},
                {"docker", request.docker},
                {"reason", request.reason},
                {"command", request.command}};
    if (request.netOpen) {
        out["net"] = "open";
    }
    return out;
}

}  // namespace moat
