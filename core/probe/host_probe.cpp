// SPDX-License-Identifier: Apache-2.0
#include "probe/host_probe.h"

#include "base/moat_paths.h"
#include "probe/inner_layers.h"
#include "probe/kernel_checks.h"
#include "probe/machine_checks.h"
#include "probe/network_checks.h"
#include "probe/privilege_checks.h"
#include "probe/process_status.h"
#include "probe/secret_checks.h"

#include <cstdlib>
#include <pwd.h>
#include <unistd.h>

namespace moat::probe {

namespace {

std::string homeDirectory()
{
    if (const char* home = std::getenv("HOME"); home && *home) {
        return home;
    }
    const passwd* entry = ::getpwuid(::getuid());
    return entry ? entry->pw_dir : "/";
}

}  // namespace

Checks runCommonChecks(const std::string& home)
{
    Checks checks;
    checks.push_back(hypervisor());
    checks.push_back(containerMarkers());
    checks.push_back(lsmList());
    checks.push_back(landlockAbi());
    checks.push_back(seccompAvailable());
    checks.push_back(userNamespaceProcfs());
    checks.push_back(innerSandboxLayers());
    for (auto& check : currentProcessChecks()) {
        checks.push_back(std::move(check));
    }
    const auto user = currentUserName();
    const auto groups = currentGroupNames();
    checks.push_back(sudoReachable());
    checks.push_back(sudoNopasswd(user, groups));
    checks.push_back(rootEquivalentGroups(groups));
    checks.push_back(adminGroups(groups));
    checks.push_back(containerSockets());
    checks.push_back(worldWritableSockets());
    checks.push_back(platformTokens(home));
    checks.push_back(metadataRoute());
    checks.push_back(defaultRoute());
    checks.push_back(publicRoute());
    checks.push_back(directDns());
    checks.push_back(credentialEnvNames());
    checks.push_back(credentialFiles(home));
    return checks;
}

Checks runHostChecks()
{
    Checks checks = runCommonChecks(homeDirectory());
    const auto paths = MoatPaths::fromEnvironment();
    checks.push_back(directoryReach("records_reachable", paths.stateDir));
    checks.push_back(directoryReach("checkpoints_reachable", paths.dataDir));
    return checks;
}

}  // namespace moat::probe
