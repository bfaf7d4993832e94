// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/ed25519.h"
#include "base/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace moat {

class RecordKeys;

// A session's seal: events.seal beside events.jsonl, written once, when the
// session ends, after the log is on disk. It names the log's last line and
// that line's SHA-256 (the head of the hash chain, which covers every line
// before it) and signs them with the user's Ed25519 record key:
//
//   {"session","lines","head","ts","key","public_key","signature"}
//
// signature = Ed25519 over signedMessage(), hex. A log without a seal ended
// without one (its supervisor died) or lost it; `moat audit verify` tells
// which it can (docs/records.md).
struct EventSeal {
    std::string session;
    uint64_t lines = 0;     // lines of events.jsonl it covers, 1..lines
    std::string head;       // SHA-256 (hex) of line `lines` as written
    std::string ts;         // when it was made, RFC 3339 UTC
    std::string key;        // RecordKeys::id() of the signing key
    std::string publicKey;  // that key's Ed25519 public key, hex
    std::string signature;  // hex

    // "moat-seal-v1\n<session>\n<lines>\n<head>\n<ts>\n": what is signed.
    std::string signedMessage() const;

    static Result<EventSeal> make(std::string session, uint64_t lines, std::string head, std::string ts,
                                  const RecordKeys& keys);
    // True when `signature` is `signer`'s over signedMessage().
    bool signedBy(const ed25519::PublicKey& signer) const;

    std::string toJson() const;  // one line, with its newline
    static Result<EventSeal> parse(std::string_view text);

    // events.jsonl -> events.seal (any other name: NAME.seal).
    static std::string pathFor(const std::string& eventsPath);
    // Written to a temporary file, synced, renamed into place, directory synced.
    Status writeTo(const std::string& path) const;
};

}  // namespace moat
