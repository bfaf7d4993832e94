// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <memory>
#include <optional>
#include <string>

namespace moat::keychain {

// What moat needs of the OS keychain: one secret read or written by name,
// under the service "moat". The implementation (QtKeychain, Secret Service)
// lives in the module moat-keychain.so, loaded only when a session bus is
// there to use it: Qt and its libraries cost `moat run` about 3 ms to load,
// which a session without a keychain should not pay.
class SecretStore {
public:
    virtual ~SecretStore() = default;

    // nullopt: no such entry. An error: the keychain could not be used, and
    // its message says why (QtKeychain's words).
    virtual Result<std::optional<std::string>> read(const std::string& name) = 0;
    virtual Status write(const std::string& name, const std::string& text) = 0;
};

// The module's one entry point, by this name (C linkage).
using CreateSecretStore = SecretStore* (*)();
inline constexpr const char* kCreateSecretStoreSymbol = "moat_keychain_create_secret_store_v1";
inline constexpr const char* kSecretStoreModule = "moat-keychain.so";

// Loads moat-keychain.so from beside the running binary, else from moat's
// libexec directory, and makes a store. Loaded once, never unloaded.
Result<std::unique_ptr<SecretStore>> loadSecretStore();

}  // namespace moat::keychain
