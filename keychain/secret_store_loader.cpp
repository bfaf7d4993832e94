// SPDX-License-Identifier: Apache-2.0
#include "secret_store.h"

#include "base/program_path.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>

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

std::optional<std::string> sessionBusProblem()
{
    if (const char* address = std::getenv("DBUS_SESSION_BUS_ADDRESS"); address && *address) {
        return std::nullopt;
    }
    if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime == '/') {
        struct stat info {};
        if (::stat((std::string(runtime) + "/bus").c_str(), &info) == 0 && S_ISSOCK(info.st_mode)) {
            return std::nullopt;
        }
    }
    return std::string("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set");
}

}  // namespace moat::keychain
