// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <string_view>

namespace moat::claims {

// The `moat probe` checks, run inside a fresh default sandbox, that verify the
// claims of `moat claims`. Every claim names exactly one of them; moat probe
// reports each under this name, so a reviewer (and tests/integration) can
// match a claim to its evidence. A claim whose check is not here fails the
// unit test tst_claims: a promise nobody can check is only marketing.
inline constexpr std::array<std::string_view, 29> kVerifyingChecks = {
    // namespaces
    "sandbox_namespaces", "procfs_private",
    // privileges
    "cap_eff_zero", "cap_prm_zero", "cap_bnd_zero", "cap_amb_zero", "no_new_privs",
    // kernel filters
    "seccomp_mode", "seccomp_filter_denies", "landlock_abi", "landlock_enforced",
    // file system
    "mount_view", "real_home_reachable",
    // network
    "public_route", "default_route", "dns_direct", "dns_stub_refuses", "proxy_refuses_unlisted",
    "proxy_refuses_raw_ip", "proxy_refuses_metadata", "metadata_route",
    // secrets and records
    "keychain_unreachable", "credential_env_names", "credential_files", "records_reachable",
    "checkpoints_reachable",
    // the host's privileges
    "sudo_nopasswd", "root_equivalent_groups", "container_sockets"};

constexpr bool isVerifyingCheck(std::string_view name)
{
    for (std::string_view check : kVerifyingChecks) {
        if (check == name) {
            return true;
        }
    }
    return false;
}

}  // namespace moat::claims
