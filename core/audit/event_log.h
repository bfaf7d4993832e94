// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/hmac_sha256.h"
#include "audit/log_syncer.h"
#include "audit/record_keys.h"
#include "audit/sha256.h"
#include "base/error.h"
#include "base/unique_fd.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace moat {

// A session's timeline: one JSON object a line,
//   {"data","key","prev","seq","session","ts","type","mac"}
// where "prev" is the SHA-256 (hex) of the previous line as written (64 zeros
// for the first), "mac" the HMAC-SHA-256 of the line without its mac under
// the user's record key (record_line.h), and "key", on the first line only,
// names that key (RecordKeys::id()). A removed, reordered or edited line
// breaks the chain; a forged one lacks the key. seal() signs the chain's head
// into events.seal when the session ends. docs/records.md has the details,
// LogVerifier the checks.
//
// Each line is one write() on an O_APPEND fd, so a crash of this process
// leaves at most a torn last line; LogSyncer keeps the file on disk. The log
// lives in the session's state directory, outside the sandbox; a copy may be
// mirrored to a file the user chose with --json-events (neither MACed
// differently nor sealed: the same lines).
class EventLog {
public:
    static Result<EventLog> open(const std::string& path, const std::string& sessionId,
                                 std::shared_ptr<const RecordKeys> keys);

    // Also write every event to this file (created or truncated).
    Status mirrorTo(const std::string& path);

    Status append(const std::string& type, nlohmann::json data);
    // Syncs the log, then signs its head into EventSeal::pathFor(path). Once
    // only; nothing can be appended after it.
    Status seal();

    uint64_t lines() const { return seq_; }

    static std::string sha256Hex(const std::string& text);
    static std::string timestampNow();  // RFC 3339, UTC, milliseconds

private:
    EventLog() = default;
    static Status writeLine(int fd, const std::string& line);

    // Declared before syncer_: the syncer's thread uses the fd until it stops.
    UniqueFd fd_;
    UniqueFd mirror_;
    std::string path_;
    std::string session_;
    std::shared_ptr<const RecordKeys> keys_;
    std::unique_ptr<HmacSha256> mac_;
    std::unique_ptr<Sha256> sha_;
    std::unique_ptr<LogSyncer> syncer_;
    uint64_t seq_ = 0;
    std::string prev_ = std::string(64, '0');
    bool sealed_ = false;
};

}  // namespace moat
