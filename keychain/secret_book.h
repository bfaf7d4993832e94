// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/moat_paths.h"
#include "egress/locked_secret.h"
#include "secret_store.h"

#include <memory>
#include <string>
#include <vector>

namespace moat::keychain {

// What a secret is bound to: the hosts it may be sent to and the headers it
// may fill (docs/secrets.md). Never a value.
struct SecretBinding {
    std::string name;
    std::vector<std::string> hosts;    // HostPattern syntax, as given
    std::vector<std::string> headers;  // HTTP field names; none stored means Authorization
};

// A secret as a session needs it: bindings, and the value in locked memory.
struct StoredSecret {
    SecretBinding binding;
    LockedSecret value;
};

// The user's secrets (`moat secret`), in the same places moatd keeps them
// (helper/secret_vault.h), so that the CLI without moatd and moatd see the
// same secrets:
//   the value in the OS keychain (Secret Service through moat-keychain.so),
//     service "moat", key "secret/NAME";
//   the bindings in <config dir>/secrets.json (0600):
//     {"secrets": [{"name": ..., "hosts": [...], "headers": [...]}, ...]}.
//
// There is no plain-text fallback: with no keychain reachable, set(),
// remove() and fetch() fail and say how to get one. list() reads only the
// bindings file.
//
// Used by `moat secret` when moatd is not there, and by whoever starts a
// session (the CLI in embedded mode, moatd) to fetch() what --secret names.
// Not thread-safe; the keychain module is loaded on first need.
class SecretBook {
public:
    explicit SecretBook(MoatPaths paths);
    ~SecretBook();
    SecretBook(const SecretBook&) = delete;
    SecretBook& operator=(const SecretBook&) = delete;

    // The checks set() makes before anything is stored: the name, at least
    // one host (HostPattern syntax), header names. Fills the default header
    // (Authorization) when none is given.
    static Status check(SecretBinding& binding);

    // Stores value (checked with checkSecretValue) and binding, replacing
    // any secret of that name; `value` is wiped whatever happens. On failure
    // nothing of a new secret is left behind.
    Status set(SecretBinding binding, std::string& value);
    // Removes value and binding. An error when no secret has that name.
    Status remove(const std::string& name);
    // Every secret's bindings, in the order they were first set.
    Result<std::vector<SecretBinding>> list() const;
    // The value and bindings of secret `name`, for a session that uses it.
    Result<StoredSecret> fetch(const std::string& name);

    std::string bindingsPath() const;
    // The key of a secret's value in the keychain (service "moat").
    static std::string keychainKey(const std::string& name) { return "secret/" + name; }

private:
    // The bindings of `name`, or an error saying there is no such secret.
    Result<SecretBinding> findBinding(const std::string& name) const;
    Result<SecretStore*> keychain();
    Status writeBindings(const std::vector<SecretBinding>& bindings) const;

    MoatPaths paths_;
    std::unique_ptr<SecretStore> store_;
};

}  // namespace moat::keychain
