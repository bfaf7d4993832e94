// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace moat {

// Where moat keeps what must stay outside every sandbox (ARCHITECTURE.md,
// "State on disk"). Each honours its MOAT_*_DIR override, then XDG, then HOME.
struct MoatPaths {
    std::string configDir;  // policy.toml, profiles/
    std::string stateDir;   // sessions/<id>/, homes/<profile>/
    std::string dataDir;    // images, checkpoints
    // Sockets of running sessions: MOAT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/moat,
    // else stateDir/run (a 0700 directory either way, created by who binds).
    std::string runtimeDir;

    static MoatPaths fromEnvironment();

    std::string sessionDir(const std::string& sessionId) const { return stateDir + "/sessions/" + sessionId; }
    std::string homeDir(const std::string& profile) const { return stateDir + "/homes/" + profile; }
    // Where a running session's supervisor listens for moatd to re-attach.
    std::string supervisorSocket(const std::string& sessionId) const
    {
        return runtimeDir + "/supervisors/" + sessionId + ".sock";
    }
};

}  // namespace moat
