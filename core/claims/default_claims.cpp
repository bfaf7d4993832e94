// SPDX-License-Identifier: Apache-2.0
#include "claims/default_claims.h"

#include "claims/claim_sections_p.h"
#include "runtime/kernel_support.h"

#include <sys/utsname.h>

namespace moat::claims {

ClaimsContext ClaimsContext::current()
{
    ClaimsContext context;
    struct utsname name {};
    context.kernelRelease = ::uname(&name) == 0 ? name.release : "unknown";
    const KernelSupport kernel = KernelSupport::probe();
    context.landlockKernelAbi = kernel.landlockAbi;
    context.seccomp = kernel.seccomp;
    context.paths = MoatPaths::fromEnvironment();
    return context;
}

std::vector<Claim> defaultSandboxClaims(const ClaimsContext& context)
{
    std::vector<Claim> claims;
    detail::addConfinementClaims(context, claims);
    detail::addViewClaims(context, claims);
    detail::addCustodyClaims(context, claims);
    return claims;
}

namespace detail {

std::string joinedList(const std::vector<std::string>& items)
{
    std::string text;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
            text += i + 1 == items.size() ? " and " : ", ";
        }
        text += items[i];
    }
    return text;
}

}  // namespace detail

}  // namespace moat::claims
