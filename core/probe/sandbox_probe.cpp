// SPDX-License-Identifier: Apache-2.0
#include "probe/sandbox_probe.h"

#include "probe/host_probe.h"
#include "probe/proxy_checks.h"
#include "probe/sandbox_checks.h"

#include <cstdlib>

namespace moat::probe {

namespace {

Check reach(const std::string& name, const std::optional<HostDirectory>& directory, const std::string& what)
{
    if (!directory) {
        // Fail closed: `moat probe` could not name it, so it cannot be ruled out.
        return {name, false, what + ": not identified on the host, so not ruled out", 1};
    }
    return hostDirectoryReach(name, *directory);
}

}  // namespace

Checks runSandboxChecks(const SandboxContext& context)
{
    const char* home = std::getenv("HOME");
    Checks checks = runCommonChecks(home && *home ? home : "/");
    checks.push_back(sandboxNamespaces(context.hostNamespaces));
    checks.push_back(procfsPrivate(context.hostNamespaces));
    checks.push_back(seccompFilterDenies());
    checks.push_back(landlockEnforced());
    checks.push_back(mountView(context.workspace));
    checks.push_back(proxyRefuses("proxy_refuses_unlisted", "example.com", 443));
    checks.push_back(proxyRefuses("proxy_refuses_raw_ip", "1.1.1.1", 443));
    checks.push_back(proxyRefuses("proxy_refuses_metadata", "169.254.169.254", 80));
    checks.push_back(dnsStubRefuses());
    checks.push_back(keychainUnreachable(context.hostBus));
    checks.push_back(reach("real_home_reachable", context.realHome, "the user's real home"));
    checks.push_back(reach("records_reachable", context.records, "moat's session records"));
    checks.push_back(reach("checkpoints_reachable", context.checkpoints, "moat's checkpoints"));
    return checks;
}

}  // namespace moat::probe
