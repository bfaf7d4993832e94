// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace moat::claims {

// One promise `moat claims` makes about a default sandbox (`moat run` without
// flags) on this build and this kernel, with the one `moat probe` check that
// verifies it from inside such a sandbox (docs/claims.md). The id is stable:
// scripts and the integration tests match on it.
struct Claim {
    std::string id;     // dotted, e.g. "caps.effective"
    std::string area;   // e.g. "privileges", "seccomp"; claims of one area are adjacent
    std::string text;   // the promise, one sentence
    std::string check;  // a name from probe_checks.h
    std::vector<std::string> details;  // the evidence: lists, paths, reasons
};

}  // namespace moat::claims
