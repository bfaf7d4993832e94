// SPDX-License-Identifier: Apache-2.0
#include "secret_store.h"

#include "base/program_path.h"

#include <dlfcn.h>

namespace moat::keychain {

Result<std::unique_ptr<SecretStore>> loadSecretStore()
{
    // Beside the running binary, else installed: where moat-supervisor is found.
    const std::string path = siblingProgramPath(kSecretStoreModule);
    // Never closed: Qt does not survive being unloaded.
    void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) {
        const char* why = ::dlerror();
        return Error{"cannot load moat's keychain module " + path + ": " + (why ? why : "unknown error"), 0,
                     "Reinstall moat"};
    }
    auto create = reinterpret_cast<CreateSecretStore>(::dlsym(module, kCreateSecretStoreSymbol));
    if (!create) {
        return Error{path + " is not moat's keychain module (no " + kCreateSecretStoreSymbol + ")", 0,
                     "Reinstall moat"};
    }
    return std::unique_ptr<SecretStore>(create());
}

}  // namespace moat::keychain
