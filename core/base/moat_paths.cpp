// SPDX-License-Identifier: Apache-2.0
#include "base/moat_paths.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>

namespace moat {

namespace {

std::string envOr(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value == '/' ? std::string(value) : std::string();
}

std::string homeDirectory()
{
    if (auto home = envOr("HOME"); !home.empty()) {
        return home;
    }
    if (const passwd* entry = getpwuid(getuid()); entry && entry->pw_dir) {
        return entry->pw_dir;
    }
    return "/nonexistent";
}

std::string pick(const char* moatVar, const char* xdgVar, const char* homeSuffix)
{
    if (auto value = envOr(moatVar); !value.empty()) {
        return value;
    }
    if (auto value = envOr(xdgVar); !value.empty()) {
        return value + "/moat";
    }
    return homeDirectory() + homeSuffix;
}

}  // namespace

MoatPaths MoatPaths::fromEnvironment()
{
    MoatPaths paths{
        pick("MOAT_CONFIG_DIR", "XDG_CONFIG_HOME", "/.config/moat"),
        pick("MOAT_STATE_DIR", "XDG_STATE_HOME", "/.local/state/moat"),
        pick("MOAT_DATA_DIR", "XDG_DATA_HOME", "/.local/share/moat"),
        {},
    };
    if (auto value = envOr("MOAT_RUNTIME_DIR"); !value.empty()) {
        paths.runtimeDir = value;
    } else if (auto xdg = envOr("XDG_RUNTIME_DIR"); !xdg.empty()) {
        paths.runtimeDir = xdg + "/moat";
    } else {
        paths.runtimeDir = paths.stateDir + "/run";
    }
    return paths;
}

}  // namespace moat
