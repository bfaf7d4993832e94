// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <sys/types.h>

#include <string>

namespace moat {

// Who the agent is, on the host and inside its user namespace.
//
// The agent never runs as host uid 0. Invoked by an ordinary user, it runs as
// that user's uid (mapped to itself, or to 0 inside with --sudo). Invoked by
// root, it runs as a dedicated unprivileged host uid (kRootModeHostId), and
// every host directory shown to it is an idmapped mount so that what it
// writes still belongs to that directory's owner.
struct AgentIdentity {
    static constexpr uid_t kRootModeHostId = 2147418112;  // 0x7fff0000, in no Debian or systemd range
    static constexpr uid_t kRootModeInsideId = 1000;

    uid_t hostUid = 0;
    gid_t hostGid = 0;
    uid_t insideUid = 0;
    gid_t insideGid = 0;
    std::string name;  // user name inside
    std::string home;  // HOME inside
    bool privilegedInvoker = false;  // the supervisor runs as host root

    static Result<AgentIdentity> forCurrentProcess(bool sudo);

    std::string uidMapLine() const;
    std::string gidMapLine() const;
};

}  // namespace moat
