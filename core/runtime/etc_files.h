// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "runtime/agent_identity.h"

#include <string>
#include <string_view>

namespace moat {

// The files of the sandbox's /etc that moat writes itself rather than
// copying from the host: they name the agent user and nobody else, and point
// name resolution at the sandbox's own loopback.
struct EtcFiles {
    static std::string passwd(const AgentIdentity& id, const std::string& shell);
    static std::string group(const AgentIdentity& id);
    static std::string hosts(const std::string& hostname);
    static std::string resolvConf();
    static std::string nsswitch();

    // Host /etc entries a sandbox may see (everything else of the host's /etc,
    // such as shadow, sudoers, ssh host keys and machine-id, stays outside).
    static bool hostEntryAllowed(std::string_view name);
    // Entries moat always writes itself, whatever the image has.
    static bool synthesized(std::string_view name);
};

}  // namespace moat
