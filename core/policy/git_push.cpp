// SPDX-License-Identifier: Apache-2.0
#include "policy/git_push.h"

#include <algorithm>

#include "base/hex_digit.h"

namespace moat {

namespace {

// pkt-line: four hex digits give the length of the line, those four
// included; 0000 is a flush, 0001 and 0002 are protocol v2 markers that
// have no place in a v0/v1 push. 65520 is git's LARGE_PACKET_MAX.
constexpr size_t kMaxPacketLength = 65520;
constexpr size_t kMaxRefNameLength = 1024;
constexpr size_t kSha1HexLength = 40;
constexpr size_t kSha256HexLength = 64;

// An object id of exactly `length` hex digits, lower-cased; empty if not.
std::string objectId(std::string_view text, size_t length)
{
    if (text.size() != length) {
        return {};
    }
    std::string out;
    out.reserve(length);
    for (char c : text) {
        const int value = hexDigitValue(c);
        if (value < 0) {
            return {};
        }
        out += "0123456789abcdef"[value];
    }
    return out;
}

Error malformed(const std::string& why)
{
    return Error{"the push's command list is malformed: " + why, 0,
                 "moat judges a push by the refs it updates and does not guess at a body it cannot read; "
                 "push with git (not --signed)"};
}

// What goes into a message from the agent's bytes: printable ASCII only.
std::string printable(std::string_view text)
{
    std::string out;
    for (char c : text.substr(0, 120)) {
        const auto byte = static_cast<unsigned char>(c);
        out += byte < 0x20 || byte >= 0x7f ? '?' : c;
    }
    return text.size() > 120 ? out + "..." : out;
}

struct LineReader {
    const ReceivePackLimits& limits;
    ReceivePackCommands commands;
    size_t hashLength = 0;  // known after the first command line

    Status readCapabilities(std::string_view text)
    {
        hashLength = kSha1HexLength;
        while (!text.empty()) {
            const std::string_view capability = text.substr(0, text.find(' '));
            text.remove_prefix(std::min(text.size(), capability.size() + 1));
            if (capability.empty()) {
                continue;
            }
            if (capability.starts_with("object-format=")) {
                const std::string_view format = capability.substr(14);
                if (format == "sha256") {
                    hashLength = kSha256HexLength;
                } else if (format != "sha1") {
                    return malformed("unknown object format '" + printable(format) + "'");
                }
            }
            commands.capabilities.emplace_back(capability);
        }
        return {};
    }

    Status readLine(std::string_view line)
    {
        if (line.ends_with('\n')) {
            line.remove_suffix(1);
        }
        const bool first = hashLength == 0;
        if (first && line.starts_with("shallow ")) {
            const std::string_view oid = line.substr(8);
            if (objectId(oid, kSha1HexLength).empty() && objectId(oid, kSha256HexLength).empty()) {
                return malformed("a shallow line does not hold an object id");
            }
            ++commands.shallowLines;
            return {};
        }
        if (first && (line == "push-cert" || line.starts_with(std::string_view("push-cert\0", 10)))) {
            return Error{
                "moat cannot judge a signed push (git push --signed): its ref updates are inside a "
                "certificate",
                0, "Push without --signed"};
        }
        const size_t nul = line.find('\0');
        if (!first && nul != std::string_view::npos) {
            return malformed("a NUL after the first command line");
        }
        if (first) {
            if (auto status = readCapabilities(nul == std::string_view::npos ? "" : line.substr(nul + 1)); !status) {
                return status;
            }
            line = line.substr(0, nul);
        }
        if (commands.updates.size() >= limits.maxUpdates) {
            return Error{"the push updates more than " + std::to_string(limits.maxUpdates) + " refs at once", 0,
                         "Push fewer refs at a time"};
        }
        // "old SP new SP ref", each id exactly hashLength hex digits.
        const std::string oldOid = objectId(line.substr(0, hashLength), hashLength);
        const std::string newOid =
            line.size() > hashLength ? objectId(line.substr(hashLength + 1, hashLength), hashLength) : std::string();
        if (oldOid.empty() || newOid.empty() || line.size() <= 2 * hashLength + 2 || line[hashLength] != ' ' ||
            line[2 * hashLength + 1] != ' ') {
            return malformed("'" + printable(line) + "' is not 'old-id new-id refname' with " +
                             std::to_string(hashLength) + "-digit ids");
        }
        const std::string_view refName = line.substr(2 * hashLength + 2);
        if (const std::string why = refNameProblem(refName); !why.empty()) {
            return malformed("ref '" + printable(refName) + "': " + why);
        }
        commands.updates.push_back({oldOid, newOid, std::string(refName)});
        return {};
    }
};

}  // namespace

std::string refNameProblem(std::string_view name)
{
    if (!name.starts_with("refs/")) {
        return "it does not start with refs/";
    }
    if (name.size() > kMaxRefNameLength) {
        return "it is longer than 1024 characters";
    }
    for (char c : name) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte <= 0x20 || byte == 0x7f || std::string_view("~^:?*[\\").find(c) != std::string_view::npos) {
            return "it holds a space, a control character or one of ~ ^ : ? * [ \\";
        }
    }
    if (name.find("..") != std::string_view::npos || name.find("@{") != std::string_view::npos) {
        return "it holds '..' or '@{'";
    }
    if (name.ends_with('/') || name.ends_with('.')) {
        return "it ends with '/' or '.'";
    }
    for (std::string_view rest = name; !rest.empty();) {
        const std::string_view component = rest.substr(0, rest.find('/'));
        if (component.empty()) {
            return "it has an empty component ('//')";
        }
        if (component.front() == '.' || component.ends_with(".lock")) {
            return "a component starts with '.' or ends with '.lock'";
        }
        rest.remove_prefix(std::min(rest.size(), component.size() + 1));
    }
    return {};
}

Result<ReceivePackParse> parseReceivePackCommands(std::string_view body, bool bodyComplete,
                                                  const ReceivePackLimits& limits)
{
    LineReader reader{limits, {}, 0};
    size_t pos = 0;
    const Error tooLong{"the push's command list is longer than " + std::to_string(limits.maxBytes) + " bytes", 0,
                        "Push fewer refs at a time"};
    // Each limit is checked before waiting for more bytes, so that a list
    // that cannot end within maxBytes is an error now, not a growing buffer.
    while (true) {
        if (pos + 4 > limits.maxBytes) {
            return tooLong;
        }
        if (body.size() - pos < 4) {
            break;  // need the next length
        }
        size_t length = 0;
        for (size_t i = 0; i < 4; ++i) {
            const int digit = hexDigitValue(body[pos + i]);
            if (digit < 0) {
                return malformed("'" + printable(body.substr(pos, 4)) + "' is not a pkt-line length");
            }
            length = length * 16 + static_cast<size_t>(digit);
        }
        if (length == 0) {
            reader.commands.consumed = pos + 4;
            return ReceivePackParse{true, std::move(reader.commands)};
        }
        if (length <= 4) {
            return malformed("an empty or special packet (" + std::string(body.substr(pos, 4)) +
                             ") inside the command list");
        }
        if (length > kMaxPacketLength) {
            return malformed("a pkt-line longer than 65520 bytes");
        }
        if (pos + length > limits.maxBytes) {
            return tooLong;
        }
        if (body.size() - pos < length) {
            break;  // need the rest of this line
        }
        if (auto status = reader.readLine(body.substr(pos + 4, length - 4)); !status) {
            return status.error();
        }
        pos += length;
    }
    if (bodyComplete) {
        return malformed("the body ends before the command list's flush-pkt");
    }
    return ReceivePackParse{false, {}};
}

bool isReceivePackProbe(std::string_view body)
{
    return body == "0000";
}

Status checkReceivePackEncoding(std::string_view contentEncoding)
{
    while (!contentEncoding.empty() && (contentEncoding.front() == ' ' || contentEncoding.front() == '\t')) {
        contentEncoding.remove_prefix(1);
    }
    while (!contentEncoding.empty() && (contentEncoding.back() == ' ' || contentEncoding.back() == '\t')) {
        contentEncoding.remove_suffix(1);
    }
    std::string lower(contentEncoding);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    if (lower.empty() || lower == "identity") {
        return {};
    }
    return Error{"moat cannot read the ref updates of a push sent with Content-Encoding '" + printable(lower) + "'", 0,
                 "git never compresses a push; push with git, or have the client send the body uncompressed"};
}

}  // namespace moat
