// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace moat::probe {

// One line of /proc/self/mountinfo, the fields the probe reads.
struct MountEntry {
    uint32_t major = 0;
    uint32_t minor = 0;
    std::string root;        // the path within its file system that is mounted here
    std::string mountPoint;  // where, in this mount namespace
    std::vector<std::string> options;  // per-mount options: ro/rw, nosuid, nodev, noexec...
    std::string fsType;

    bool hasOption(const std::string& option) const;
};

// Parses mountinfo text; octal escapes (\040 for a space) are decoded, and
// malformed lines are skipped.
std::vector<MountEntry> parseMountInfo(const std::string& text);

// This process's mount table.
std::vector<MountEntry> currentMounts();

// Whether path is base or lies beneath it, comparing whole components.
bool isPathWithin(const std::string& path, const std::string& base);

}  // namespace moat::probe
