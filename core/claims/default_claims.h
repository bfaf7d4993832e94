// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "claims/claim.h"
#include "claims/claims_context.h"

#include <vector>

namespace moat::claims {

// Everything a default sandbox (`moat run` without flags: --image host,
// --net proxy, no --sudo, no --allow-host) promises on `context`, grouped by
// area in a fixed order: namespaces, privileges, seccomp, landlock,
// filesystem, network, secrets, records, host. The lists in the claims
// (seccomp denials, Landlock rights, the /etc entries never shown, the proxy's
// ports) are read from the code that enforces them, never copied.
std::vector<Claim> defaultSandboxClaims(const ClaimsContext& context);

}  // namespace moat::claims
