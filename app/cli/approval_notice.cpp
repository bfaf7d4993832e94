// SPDX-License-Identifier: Apache-2.0
#include "approval_notice.h"

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

std::string terminalSafe(const std::string& text, std::size_t maxBytes)
{
    std::string safe;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        std::size_t length = 1;
        if (byte >= 0xc0 && byte < 0xe0) {
            length = 2;
        } else if (byte >= 0xe0 && byte < 0xf0) {
            length = 3;
        } else if (byte >= 0xf0) {
            length = 4;
        }
        if (safe.size() + length > maxBytes) {
            return safe + "...";
        }
        const bool c0OrDel = byte < 0x20 || byte == 0x7f;
        // C1 controls (U+0080..U+009F) are 0xC2 0x80..0x9F in UTF-8; some
        // terminals act on them as on ESC sequences.
        const bool c1 = byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[i + 1]) <= 0x9f;
        const bool stray = byte >= 0x80 && byte < 0xc0;  // a continuation byte without its lead
        if (c0OrDel || stray || i + length > text.size()) {
            safe += '?';
            continue;
        }
        if (c1) {
            safe += '?';
            ++i;
            continue;
        }
        safe.append(text, i, length);
        i += length - 1;
    }
    return safe;
}

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
