// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/ed25519.h"
#include "base/error.h"
#include "base/unique_fd.h"

#include <memory>
#include <string>
#include <string_view>

namespace moat {

// One user's record keys: an HMAC-SHA-256 key (32 random bytes) that MACs
// every line of every session's events.jsonl, and an Ed25519 key (its 32-byte
// seed) that signs each session's seal. docs/records.md says what they prove.
//
// Who holds them: the Qt side (keychain/) keeps them in the OS keychain, or
// in a 0600 key file when no keychain is reachable, in the text form below;
// `moat run` hands them to moat-supervisor on a sealed memfd (never argv or
// the environment); the supervisor keeps them in memory for the session.
//
// In memory they live in a page of their own: locked (never swapped), left
// out of core dumps, and wiped in every child process (MADV_WIPEONFORK).
// Sandbox init is a clone of the supervisor: with that page it starts with
// zeros where the keys were, so nothing in a sandbox ever holds them.
class RecordKeys {
public:
    static constexpr size_t kHmacKeySize = 32;

    // New random keys (OpenSSL's private DRBG, seeded by the kernel).
    static Result<RecordKeys> generate();
    // "moat-record-keys-v1 <HMAC key hex> <Ed25519 seed hex>": the form kept
    // in the keychain and in the key file.
    static Result<RecordKeys> fromText(std::string_view text);
    std::string toText() const;  // a secret: wipe() it when done

    // The hand-off to moat-supervisor: a sealed memfd (not close-on-exec:
    // it is meant to cross one exec) holding the keys and location().
    Result<UniqueFd> toSealedMemfd() const;
    // Reads a hand-off written by toSealedMemfd(), straight into the locked page.
    static Result<RecordKeys> readFrom(int fd);

    ~RecordKeys();
    RecordKeys(RecordKeys&&) noexcept;
    RecordKeys& operator=(RecordKeys&&) noexcept;

    // 16 hex digits naming this key pair (the start of the SHA-256 of the
    // Ed25519 public key): each log names the keys it was written with.
    // Derived on first use (OpenSSL's start costs `moat run` time it need not
    // spend: it only passes the keys on).
    const std::string& id() const;
    const ed25519::PublicKey& publicKey() const;
    const unsigned char* hmacKey() const;
    const unsigned char* signingSeed() const;

    // Where they are kept, for the record: "keychain", or the key file's
    // path. Not a secret; set by whoever loaded them.
    const std::string& location() const { return location_; }
    void setLocation(std::string location) { location_ = std::move(location); }

    // Overwrites a string that held key material (OPENSSL_cleanse).
    static void wipe(std::string& text);

private:
    struct Page;
    explicit RecordKeys(std::unique_ptr<Page> page);
    void derivePublicParts() const;

    std::unique_ptr<Page> page_;
    std::string location_;
};

}  // namespace moat
