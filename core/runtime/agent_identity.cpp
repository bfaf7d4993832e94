// SPDX-License-Identifier: Apache-2.0
#include "runtime/agent_identity.h"

#include <pwd.h>
#include <unistd.h>

#include <cctype>

namespace moat {

namespace {

// The name goes into the sandbox's /etc/passwd: keep to the portable set.
bool isPortableUserName(const std::string& name)
{
    if (name.empty() || name.size() > 32 || !(std::islower(static_cast<unsigned char>(name.front())) || name.front() == '_')) {
        return false;
    }
    for (char c : name) {
        if (!std::islower(static_cast<unsigned char>(c)) && !std::isdigit(static_cast<unsigned char>(c)) && c != '_' &&
            c != '.' && c != '-') {
            return false;
        }
    }
    return true;
}

}  // namespace

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
        id.name = entry && isPortableUserName(entry->pw_name) ? entry->pw_name : "agent";
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
