// SPDX-License-Identifier: Apache-2.0
#include "session_secrets.h"

#include "secret_book.h"
#include "session/secret_handoff.h"

namespace moat::keychain {

Result<UniqueFd> handOffSessionSecrets(const MoatPaths& paths, const std::vector<std::string>& names)
{
    SecretBook book(paths);
    std::vector<StoredSecret> fetched;
    for (const auto& name : names) {
        auto secret = book.fetch(name);
        if (!secret) {
            Error error = secret.error();
            error.what = "--secret " + name + ": " + error.what;
            return error;
        }
        fetched.push_back(std::move(secret.value()));
    }
    std::vector<SecretForHandoff> handoff;
    for (const auto& secret : fetched) {
        handoff.push_back({secret.binding.name, secret.binding.hosts, secret.binding.headers, secret.value.view()});
    }
    return writeSecretHandoff(handoff);
}

}  // namespace moat::keychain
