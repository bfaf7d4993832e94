// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace moat::probe {

// One observation of `moat probe` (docs/probe.md): a snake_case name, whether
// it looks as a sandbox should, and the evidence seen. A check only reads: it
// never changes the machine and never sends traffic off it.
struct Check {
    std::string name;
    bool ok = false;
    std::string detail;
    // A number some grading rules need beside ok (the Landlock ABI, how many
    // credential files exist); not printed.
    long value = 0;
};

using Checks = std::vector<Check>;

// The value of a check that had nothing to ask (a proxy check in a sandbox
// without moat's proxy): not ok, and graded by the checks that did look.
constexpr long kNotAsked = -1;

}  // namespace moat::probe
