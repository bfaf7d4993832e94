// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

namespace moat {

// What a person typed for `moat run`, before any checking. The CLI fills it;
// SpecBuilder turns it into a validated SandboxSpec or a clear error.
struct RunRequest {
    std::string image = "host";
    std::string workspace;  // empty: the current directory
    std::vector<std::string> readOnlyPaths;
    std::vector<std::string> readWritePaths;
    std::vector<std::string> env;  // NAME or NAME=VALUE
    bool sudo = false;
    bool docker = false;
    bool yolo = false;
    bool localTcp = false;
    std::string net = "proxy";
    std::vector<std::string> allowHosts;  // HOST[:PORT]
    std::string ttl = "8h";
    std::string name;
    std::vector<std::string> allowDegraded;
    std::vector<std::string> rules;    // 'METHOD HOST PATH ACTION' or 'push HOST REPO REF ACTION'
    std::vector<std::string> secrets;  // NAME or NAME=ENVVAR
    std::string upstreamCa;            // an extra CA file to trust for upstream TLS
    std::string askTimeout;            // how long an `ask` rule holds a request; empty: 60s
    std::vector<std::string> command;
};

}  // namespace moat
