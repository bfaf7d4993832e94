// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/record_keys.h"
#include "base/error.h"
#include "base/moat_paths.h"
#include "secret_store.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace moat::keychain {

// Where a user's record keys (core/audit/record_keys.h) are kept, and how
// they are found again. Used by `moat run` (the keys for a new session) and
// `moat audit verify` (the keys a log names); moatd will use it the same way.
//
// In the OS keychain (Secret Service through QtKeychain), service "moat":
//   record-keys        the keys new sessions use, as RecordKeys::toText();
//   record-keys/<id>   every key pair ever made, by RecordKeys::id(), never
//                      overwritten: a log names its key by id, and an entry
//                      replaced by mistake (e.g. "record-keys" written while
//                      a locked keyring answered "not found") loses no log.
//
// When no keychain is reachable (no D-Bus session bus, no Secret Service: an
// SSH login, a container, CI), moat does not refuse to run: it keeps the keys
// in one key file, <config dir>/record-keys, mode 0600, made once with a
// notice, and every session records which of the two holds its keys. Why it
// degrades rather than fails is in docs/records.md.
//
// Not thread-safe. Qt-free itself: the keychain is reached through
// moat-keychain.so (secret_store.h), loaded the first time it is asked.
class RecordKeyStore {
public:
    explicit RecordKeyStore(MoatPaths paths);
    ~RecordKeyStore();
    RecordKeyStore(const RecordKeyStore&) = delete;
    RecordKeyStore& operator=(const RecordKeyStore&) = delete;

    struct SessionKeys {
        RecordKeys keys;
        std::string notice;  // for the user, once: e.g. the key file was made, and why
    };
    // The keys for a new session: the keychain's (made on first use), else
    // the key file's (made on first use). location() says which.
    Result<SessionKeys> keysForNewSession();

    // The keys named `id`: the keychain's record-keys/<id>, else the key file
    // when it holds that id. The error says where moat looked.
    Result<std::shared_ptr<const RecordKeys>> keysById(const std::string& id);

    std::string keyFilePath() const;

    // What the keychain answered last time it failed, if it did (cached: it
    // is asked at most once per failure kind).
    const std::optional<std::string>& keychainProblem() const { return keychainProblem_; }

private:
    // nullopt: no such entry. Errors mean the keychain could not be used.
    Result<std::optional<std::string>> readSecret(const std::string& name);
    Status writeSecret(const std::string& name, const std::string& text);
    Status loadSecrets();
    Result<std::optional<RecordKeys>> readKeyFile() const;
    Result<RecordKeys> makeKeyFile() const;
    // nullopt: no keychain to be had (keychainProblem_ says why).
    Result<std::optional<RecordKeys>> keychainKeys();

    MoatPaths paths_;
    std::unique_ptr<SecretStore> secrets_;
    std::optional<std::string> keychainProblem_;
    std::map<std::string, std::shared_ptr<const RecordKeys>> byId_;
};

}  // namespace moat::keychain
