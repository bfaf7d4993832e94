// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to core/claims: the claims of default_claims.h, one function per
// group of areas, each appending in its documented order.

#include "claims/claim.h"
#include "claims/claims_context.h"

#include <vector>

namespace moat::claims::detail {

// namespaces, privileges, seccomp, landlock: what the kernel enforces.
void addConfinementClaims(const ClaimsContext& context, std::vector<Claim>& out);
// filesystem, network: what the sandbox can see and reach.
void addViewClaims(const ClaimsContext& context, std::vector<Claim>& out);
// secrets, records, host: what stays outside and who keeps it.
void addCustodyClaims(const ClaimsContext& context, std::vector<Claim>& out);

// "a, b and c"
std::string joinedList(const std::vector<std::string>& items);

}  // namespace moat::claims::detail
