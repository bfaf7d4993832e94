// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/moat_paths.h"
#include "policy/run_request.h"
#include "policy/sandbox_spec.h"

#include <map>
#include <string>

namespace moat {

// Turns a RunRequest into a SandboxSpec: parses each flag, canonicalises
// every host path, and refuses what would let a sandbox reach moat's own
// records or policy. Pure apart from reading the file system for paths.
class SpecBuilder {
public:
    SpecBuilder(MoatPaths paths, std::map<std::string, std::string> callerEnvironment, std::string currentDirectory);

    Result<SandboxSpec> build(const RunRequest& request) const;

    // The variables a command sees without asking (besides those moat sets):
    // PATH, TERM, LANG, LC_*, TZ.
    static bool isSafeVariable(const std::string& name);

private:
    Status addMount(SandboxSpec& spec, const std::string& raw, bool readOnly) const;
    Status addEnvironment(SandboxSpec& spec, const std::vector<std::string>& requested) const;
    Result<std::string> canonicalPath(const std::string& raw, const std::string& flag) const;
    Status refuseMoatDirs(const std::string& path, const std::string& flag) const;

    MoatPaths paths_;
    std::map<std::string, std::string> callerEnvironment_;
    std::string currentDirectory_;
};

std::string generateSessionId();

}  // namespace moat
