// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace moat::record_line {

// How a line of events.jsonl carries its MAC (docs/records.md, "What is
// MACed"). The writer serialises the event without "mac": the body, one JSON
// object. The MAC is HMAC-SHA-256 over exactly those bytes. The line is the
// body with its closing '}' replaced by ,"mac":"<64 hex digits>"}: the mac is
// always the last member, so a checker recovers the body from the line's
// bytes alone, with no JSON canonicalisation to agree on.

inline constexpr std::string_view kMacMember = ",\"mac\":\"";
inline constexpr size_t kMacHexSize = 64;
inline constexpr size_t kMacSuffixSize = kMacMember.size() + kMacHexSize + 2;  // plus "}

// `body` is a JSON object with at least one member.
inline std::string withMac(std::string_view body, std::string_view macHex)
{
    std::string line;
    line.reserve(body.size() + kMacSuffixSize - 1);
    line.append(body.substr(0, body.size() - 1));
    line.append(kMacMember);
    line.append(macHex);
    line.append("\"}");
    return line;
}

// A line split back: body = head + "}".
struct Parts {
    std::string_view head;
    std::string_view mac;
};

// nullopt when the line does not end in a well-formed mac member.
inline std::optional<Parts> split(std::string_view line)
{
    if (line.size() < kMacSuffixSize + 2 || line.front() != '{' || line.substr(line.size() - 2) != "\"}") {
        return std::nullopt;
    }
    const size_t macAt = line.size() - kMacSuffixSize;
    if (line.substr(macAt, kMacMember.size()) != kMacMember) {
        return std::nullopt;
    }
    const std::string_view mac = line.substr(macAt + kMacMember.size(), kMacHexSize);
    for (char c : mac) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return std::nullopt;
        }
    }
    return Parts{line.substr(0, macAt), mac};
}

}  // namespace moat::record_line
