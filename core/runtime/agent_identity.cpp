// SPDX-License-Identifier: Apache-2.0
#include "runtime/agent_identity.h"

#include <pwd.h>
#include <unistd.h>

#include <regex>

namespace moat {

Result<AgentIdentity> AgentIdentity::forCurrentProcess(bool sudo)
{
    AgentIdentity id;
    id.privilegedInvoker = geteuid() == 0;
    if (id.privilegedInvoker) {
        id.hostUid = kRootModeHostId;
        id.hostGid = kRootModeHostId;
        id.name = "agent";
        id.insideUid = kRootModeInsideId;
        id.insideGid = kRootModeInsideId;
    } else {
        id.hostUid = geteuid();
        id.hostGid = getegid();
        id.insideUid = id.hostUid;
        id.insideGid = id.hostGid;
        const passwd* entry = getpwuid(id.hostUid);
        static const std::regex kUserName("[a-z_][a-z0-9_.-]{0,31}");
        id.name = entry && std::regex_match(entry->pw_name, kUserName) ? entry->pw_name : "agent";
    }
    if (sudo) {
        id.insideUid = 0;
        id.insideGid = 0;
        id.name = "root";
        id.home = "/root";
    } else {
        id.home = "/home/" + id.name;
    }
    return id;
}

std::string AgentIdentity::uidMapLine() const
{
    return std::to_string(insideUid) + " " + std::to_string(hostUid) + " 1\n";
}

std::string AgentIdentity::gidMapLine() const
{
    return std::to_string(insideGid) + " " + std::to_string(hostGid) + " 1\n";
}

}  // namespace moat
