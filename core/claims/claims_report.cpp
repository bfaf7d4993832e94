// SPDX-License-Identifier: Apache-2.0
#include "claims/claims_report.h"

#include "claims/landlock_rights.h"

namespace moat::claims {

namespace {

nlohmann::ordered_json abiOrNull(int abi)
{
    return abi < 1 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(abi);
}

}  // namespace

nlohmann::ordered_json claimsReport(const std::string& moatVersion, const ClaimsContext& context,
                                    const std::vector<Claim>& claims)
{
    nlohmann::ordered_json report;
    report["moat_version"] = moatVersion;
    report["sandbox"] = "default";
    report["kernel"] = {{"release", context.kernelRelease},
                        {"landlock_abi", abiOrNull(abiInUse(context.landlockKernelAbi))},
                        {"landlock_kernel_abi", abiOrNull(context.landlockKernelAbi)},
                        {"seccomp", context.seccomp}};
    report["claims"] = nlohmann::ordered_json::array();
    for (const auto& claim : claims) {
        report["claims"].push_back({{"id", claim.id},
                                    {"area", claim.area},
                                    {"claim", claim.text},
                                    {"check", claim.check},
                                    {"details", claim.details}});
    }
    return report;
}

}  // namespace moat::claims
