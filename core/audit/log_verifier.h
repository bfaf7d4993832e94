// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/record_keys.h"
#include "base/error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace moat {

// What LogVerifier found in one session's records.
struct LogVerdict {
    enum class Outcome {
        Intact,        // every complete line checks out (see `ending` for how the log ends)
        Broken,        // tampering: `badLine` is the first line that does not check out
        Unverifiable,  // could not be checked (unreadable, or its key is not available): `problem` says why
    };
    enum class Ending {
        Sealed,    // events.seal signs the last line with the user's key
        Running,   // no seal yet: the session is still running
        Unsealed,  // no seal, and the session did not end cleanly (its supervisor died): lines after the
                   // last one may be lost, which nothing can prove either way
    };

    Outcome outcome = Outcome::Unverifiable;
    Ending ending = Ending::Unsealed;
    uint64_t lines = 0;          // complete lines that check out
    uint64_t badLine = 0;        // Broken: 1-based; one past the last line when lines are missing at the end;
                                 // 0 when the seal itself (events.seal) is what is wrong
    std::string excerpt;         // Broken: the start of that line, when it exists
    std::string problem;         // Broken or Unverifiable: what is wrong, in words
    uint64_t tornTailBytes = 0;  // bytes after the last newline: a write cut short by a crash
    std::string keyId;           // the record key the log names
};

// Checks a session's events.jsonl and events.seal (docs/records.md):
//   - every line ends in a mac that matches the line under the key line 1 names;
//   - line n has seq n, the session's id, and prev = SHA-256 of line n-1;
//   - a seal, when present, is signed by that user key and covers exactly
//     the lines there are, ending at the line whose hash it signed;
//   - without a seal: fine while the session runs or after a crash (reported
//     as unsealed), tampering when the session is known to have ended;
//   - bytes after the last newline are a torn tail (a write cut short), not
//     tampering, unless a seal says the log ended before them.
// It reads the file once, front to back, and stops at the first bad line.
class LogVerifier {
public:
    // The keys a log names, by RecordKeys::id(); an error says why they
    // cannot be had (the caller knows where keys are kept).
    using KeyLookup = std::function<Result<std::shared_ptr<const RecordKeys>>(const std::string& keyId)>;

    // What the session's status says, which decides what a missing seal means.
    enum class SessionState { Running, Ended, Unknown };

    explicit LogVerifier(KeyLookup lookup) : lookup_(std::move(lookup)) {}

    LogVerdict verify(const std::string& eventsPath, const std::string& sessionId, SessionState state) const;

private:
    KeyLookup lookup_;
};

}  // namespace moat
