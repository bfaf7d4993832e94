// SPDX-License-Identifier: Apache-2.0
// secret-book: keychain/secret_book.h used directly, as `moat run` without
// moatd and moatd itself will use it, for tst_secrets_cli. It shows that
// what `moat secret` stored through either path is one store, and that a
// value fetched for a session is the one given, in locked memory.
//
//   secret-book fetch NAME   the expected value on stdin; prints
//       {"match": bool, "hosts": [...], "headers": [...], "locked_bytes": N}
//       (never the value itself), or the error on stderr and exit 1
//   secret-book set NAME HOST...   the value on stdin; exit 0 or 1
#include "base/moat_paths.h"
#include "secret_book.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::cerr << "usage: secret-book fetch NAME | secret-book set NAME HOST...\n";
        return 2;
    }
    const std::string verb = argv[1];
    const std::string name = argv[2];
    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    moat::keychain::SecretBook book(moat::MoatPaths::fromEnvironment());
    if (verb == "set") {
        moat::keychain::SecretBinding binding{name, {argv + 3, argv + argc}, {}};
        if (auto stored = book.set(binding, input); !stored) {
            std::cerr << stored.error().message() << "\n";
            return 1;
        }
        return 0;
    }
    auto fetched = book.fetch(name);
    if (!fetched) {
        std::cerr << fetched.error().message() << "\n";
        return 1;
    }
    const auto& secret = fetched.value();
    std::cout << nlohmann::json{{"match", secret.value.view() == input},
                                {"hosts", secret.binding.hosts},
                                {"headers", secret.binding.headers},
                                {"locked_bytes", secret.value.lockedBytes()}}
                     .dump()
              << "\n";
    moat::LockedSecret::wipe(input);
    return 0;
}
