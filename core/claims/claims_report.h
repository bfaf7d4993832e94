// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "claims/claim.h"
#include "claims/claims_context.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace moat::claims {

// `moat claims --json` (docs/claims.md): keys in this order, stable; more may
// be added at the end of an object.
//   {"moat_version": "0.1.0",
//    "sandbox": "default",
//    "kernel": {"release": "6.18.0", "landlock_abi": 6, "landlock_kernel_abi": 7, "seccomp": true},
//    "claims": [{"id", "area", "claim", "check", "details": ["..."]}, ...]}
// landlock_abi is the ABI moat uses (null without Landlock); landlock_kernel_abi
// what the kernel offers (null without Landlock).
nlohmann::ordered_json claimsReport(const std::string& moatVersion, const ClaimsContext& context,
                                    const std::vector<Claim>& claims);

}  // namespace moat::claims
