// SPDX-License-Identifier: Apache-2.0
// moat-probe: the checks of docs/probe.md, run inside a fresh sandbox by
// `moat probe`. It prints them as JSON for `moat probe` to grade outside; it
// is not meant to be started by hand.

#include "probe/checks_json.h"
#include "probe/sandbox_context.h"
#include "probe/sandbox_probe.h"

#include <cstring>
#include <iostream>

int main(int argc, char** argv)
{
    // Outside, for tests and for debugging: the context `moat probe` would
    // pass for this host and a workspace.
    if (argc == 3 && std::strcmp(argv[1], "--context") == 0) {
        std::cout << moat::probe::SandboxContext::ofThisHost(argv[2]).toJson() << "\n";
        return 0;
    }
    if (argc != 3 || std::strcmp(argv[1], "--inside") != 0) {
        std::cerr << "moat-probe: started by `moat probe` inside a sandbox; run `moat probe` instead\n";
        return 125;
    }
    auto context = moat::probe::SandboxContext::fromJson(argv[2]);
    if (!context) {
        std::cerr << "moat-probe: " << context.error().message() << "\n";
        return 125;
    }
    std::cout << moat::probe::checksToJson(moat::probe::runSandboxChecks(context.value())) << "\n";
    return std::cout.good() ? 0 : 125;
}
