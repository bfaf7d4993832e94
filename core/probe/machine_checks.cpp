// SPDX-License-Identifier: Apache-2.0
#include "probe/machine_checks.h"

#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace moat::probe {

Check hypervisor()
{
    std::ifstream file("/proc/cpuinfo");
    std::string line;
    while (std::getline(file, line)) {
        if (line.rfind("flags", 0) == 0) {
            std::istringstream words(line);
            std::string word;
            while (words >> word) {
                if (word == "hypervisor") {
                    return {"hypervisor", true, "/proc/cpuinfo flags include hypervisor: a virtual machine"};
                }
            }
            break;
        }
    }
    return {"hypervisor", false, "no hypervisor flag in /proc/cpuinfo: bare metal, or a VM that hides it"};
}

Check containerMarkers()
{
    std::string found;
    for (const char* path : {"/.dockerenv", "/run/.containerenv", "/run/systemd/container"}) {
        if (::access(path, F_OK) == 0) {
            found += (found.empty() ? "" : ", ") + std::string(path);
        }
    }
    return {"container_markers", found.empty(), found.empty() ? "no container marker file" : "present: " + found};
}

Check directoryReach(const std::string& name, const std::string& path)
{
    std::string existing = path;
    while (!existing.empty() && ::access(existing.c_str(), F_OK) != 0) {
        const auto slash = existing.find_last_of('/');
        existing = slash == 0 ? "/" : existing.substr(0, slash == std::string::npos ? 0 : slash);
    }
    if (existing.empty()) {
        return {name, true, path + ": no existing parent", 0};
    }
    const std::string where = existing == path ? path : path + " (absent; nearest parent " + existing + ")";
    if (::access(existing.c_str(), W_OK) == 0) {
        return {name, false, where + ": writable by this user", 2};
    }
    if (existing == path && ::access(existing.c_str(), R_OK) == 0) {
        return {name, false, where + ": readable by this user", 1};
    }
    return {name, true, where + ": out of this user's reach", 0};
}

}  // namespace moat::probe
