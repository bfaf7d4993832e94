// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace moat::cli {

// Embedded mode: starts moat-supervisor as a child with the spec on a pipe,
// forwards SIGTERM/SIGHUP to it, and returns the exit status to report.
int runSupervisor(const std::string& specJson, const std::string& jsonEventsPath, int verbosity);

// The moat-supervisor next to this binary, else the installed one.
std::string supervisorPath();

}  // namespace moat::cli
