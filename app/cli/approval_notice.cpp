// SPDX-License-Identifier: Apache-2.0
#include "approval_notice.h"

#include "terminal_text.h"

namespace moat::cli {

namespace {

constexpr std::size_t kMaxReason = 200;
constexpr std::size_t kMaxFlags = 300;

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

}  // namespace

std::string approvalNotice(const nlohmann::json& request)
{
    const std::string id = terminalSafe(stringField(request, "id"), 64);
    std::string text = "the agent asks for a successor sandbox with " +
                       terminalSafe(joined(request, "flags"), kMaxFlags);
    if (const std::string command = joined(request, "command"); !command.empty()) {
        text += ", running " + terminalSafe(command, kMaxFlags);
    }
    if (const std::string reason = stringField(request, "reason"); !reason.empty()) {
        text += "; its reason (the agent's words): \"" + terminalSafe(reason, kMaxReason) + "\"";
    }
    text += ". Answer from another terminal: moat approve " + id + " or moat deny " + id;
    if (const std::string expires = stringField(request, "expires"); !expires.empty()) {
        text += " (no answer by " + terminalSafe(expires, 40) + " is a deny)";
    }
    return text;
}

}  // namespace moat::cli
