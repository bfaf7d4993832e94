// SPDX-License-Identifier: Apache-2.0
#include "probe/mount_table.h"

#include <fstream>
#include <sstream>

namespace moat::probe {

namespace {

std::string unescaped(const std::string& field)
{
    std::string out;
    for (size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size() && field[i + 1] >= '0' && field[i + 1] <= '3') {
            const int value = (field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0');
            out.push_back(static_cast<char>(value));
            i += 3;
        } else {
            out.push_back(field[i]);
        }
    }
    return out;
}

std::vector<std::string> splitOptions(const std::string& text)
{
    std::vector<std::string> options;
    std::istringstream stream(text);
    std::string option;
    while (std::getline(stream, option, ',')) {
        options.push_back(option);
    }
    return options;
}

}  // namespace

bool MountEntry::hasOption(const std::string& option) const
{
    for (const auto& present : options) {
        if (present == option) {
            return true;
        }
    }
    return false;
}

std::vector<MountEntry> parseMountInfo(const std::string& text)
{
    // id parent major:minor root mount-point options [optional...] - fstype source super-options
    std::vector<MountEntry> mounts;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string id, parent, device, root, mountPoint, options, field;
        if (!(fields >> id >> parent >> device >> root >> mountPoint >> options)) {
            continue;
        }
        while (fields >> field && field != "-") {
        }
        MountEntry entry;
        if (field != "-" || !(fields >> entry.fsType)) {
            continue;
        }
        const auto colon = device.find(':');
        if (colon == std::string::npos) {
            continue;
        }
        try {
            entry.major = static_cast<uint32_t>(std::stoul(device.substr(0, colon)));
            entry.minor = static_cast<uint32_t>(std::stoul(device.substr(colon + 1)));
        } catch (const std::exception&) {
            continue;
        }
        entry.root = unescaped(root);
        entry.mountPoint = unescaped(mountPoint);
        entry.options = splitOptions(options);
        mounts.push_back(std::move(entry));
    }
    return mounts;
}

std::vector<MountEntry> currentMounts()
{
    std::ifstream file("/proc/self/mountinfo");
    std::stringstream text;
    text << file.rdbuf();
    return parseMountInfo(text.str());
}

bool isPathWithin(const std::string& path, const std::string& base)
{
    if (base == "/") {
        return !path.empty() && path.front() == '/';
    }
    return path == base || (path.size() > base.size() && path.compare(0, base.size(), base) == 0 &&
                            path[base.size()] == '/');
}

}  // namespace moat::probe
