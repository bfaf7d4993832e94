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
    // Removing an entry that is not there is not an error.
    virtual Status remove(const std::string& name) = 0;
};

// The module's one entry point, by this name (C linkage).
using CreateSecretStore = SecretStore* (*)();
inline constexpr const char* kCreateSecretStoreSymbol = "moat_keychain_create_secret_store_v2";
inline constexpr const char* kSecretStoreModule = "moat-keychain.so";

// Loads moat-keychain.so from beside the running binary, else from moat's
// libexec directory, and makes a store. Loaded once, never unloaded.
Result<std::unique_ptr<SecretStore>> loadSecretStore();

// Why no session bus is there to reach a keychain through, or nullopt when
// one is (DBUS_SESSION_BUS_ADDRESS, or the socket $XDG_RUNTIME_DIR/bus).
// Asked before loading the module: without an address GDBus would try to
// autolaunch a bus through X11, a fresh one whose keyring nobody unlocked.
std::optional<std::string> sessionBusProblem();

}  // namespace moat::keychain
