// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace moat {

// A session's timeline: one JSON object a line,
//   {"seq","ts","session","type","data","prev"}
// where "prev" is the SHA-256 (hex) of the previous line as written (64 zeros
// for the first), so that a removed or edited line breaks the chain. The log
// lives in the session's state directory, outside the sandbox; a copy may be
// mirrored to a file the user chose with --json-events.
class EventLog {
public:
    static Result<EventLog> open(const std::string& path, const std::string& sessionId);

    // Also write every event to this file (created or truncated).
    Status mirrorTo(const std::string& path);

    Status append(const std::string& type, nlohmann::json data);

    static std::string sha256Hex(const std::string& text);
    static std::string timestampNow();  // RFC 3339, UTC, milliseconds

private:
    EventLog() = default;
    static Status writeLine(int fd, const std::string& line);

    UniqueFd fd_;
    UniqueFd mirror_;
    std::string session_;
    uint64_t seq_ = 0;
    std::string prev_ = std::string(64, '0');
};

}  // namespace moat
