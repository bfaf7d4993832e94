// SPDX-License-Identifier: Apache-2.0
#include "approval_notice.h"

#include "terminal_text.h"

namespace moat::cli {

namespace {

constexpr std::size_t kMaxReason = 200;
constexpr std::size_t kMaxFlags = 300;
constexpr std::size_t kMaxTarget = 300;
constexpr std::size_t kMaxRule = 200;

std::string stringField(const nlohmann::json& object, const char* name)
{
    const auto found = object.find(name);
    return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::string joined(const nlohmann::json& object, const char* name)
{
    std::string text;
    const auto found = object.find(name);
    if (found == object.end() || !found->is_array()) {
        return text;
    }
    for (const auto& item : *found) {
        if (item.is_string()) {
            text += (text.empty() ? "" : " ") + item.get<std::string>();
        }
    }
    return text;
}

std::string answerHow(const nlohmann::json& request)
{
    const std::string id = terminalSafe(stringField(request, "id"), 64);
    std::string text = ". Answer from another terminal: moat approve " + id + " or moat deny " + id;
    if (const std::string expires = stringField(request, "expires"); !expires.empty()) {
        text += " (no answer by " + terminalSafe(expires, 40) + " is a deny)";
    }
    return text;
}

}  // namespace

std::string httpRequestLine(const nlohmann::json& http)
{
    if (!http.is_object()) {
        return "?";
    }
    std::string target = stringField(http, "method") + " " + stringField(http, "host");
    const auto port = http.find("port");
    if (port != http.end() && port->is_number_integer() && *port != 443 && *port != 80) {
        target += ":" + std::to_string(port->get<int>());
    }
    target += stringField(http, "path");
    std::string text = terminalSafe(target, kMaxTarget);
    if (const std::string refs = joined(http, "refs"); !refs.empty()) {
        text += " (updates " + terminalSafe(refs, kMaxFlags) + ")";
    }
    return text + " (rule '" + terminalSafe(stringField(http, "rule"), kMaxRule) + "')";
}

std::string approvalNotice(const nlohmann::json& request)
{
    if (stringField(request, "kind") == "http") {
        return "the agent's request " + httpRequestLine(request.value("http", nlohmann::json())) +
               " is held until you answer" + answerHow(request);
    }
    std::string text = "the agent asks for a successor sandbox with " +
                       terminalSafe(joined(request, "flags"), kMaxFlags);
    if (const std::string command = joined(request, "command"); !command.empty()) {
        text += ", running " + terminalSafe(command, kMaxFlags);
    }
    if (const std::string reason = stringField(request, "reason"); !reason.empty()) {
        text += "; its reason (the agent's words): \"" + terminalSafe(reason, kMaxReason) + "\"";
    }
    return text + answerHow(request);
}

}  // namespace moat::cli
