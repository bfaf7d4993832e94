// SPDX-License-Identifier: Apache-2.0
#include "secret_store.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>

#ifndef MOAT_LIBEXECDIR
#define MOAT_LIBEXECDIR "/usr/local/libexec/moat"
#endif

namespace moat::keychain {

namespace {

// Beside the running binary (a build tree, a private copy), else installed:
// the same places moat looks for moat-supervisor.
std::string modulePath()
{
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        std::string dir(self, static_cast<size_t>(n));
        dir = dir.substr(0, dir.find_last_of('/'));
        const std::string sibling = dir + "/" + kSecretStoreModule;
        if (::access(sibling.c_str(), R_OK) == 0) {
            return sibling;
        }
    }
    return std::string(MOAT_LIBEXECDIR) + "/" + kSecretStoreModule;
}

}  // namespace

Result<std::unique_ptr<SecretStore>> loadSecretStore()
{
    const std::string path = modulePath();
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
