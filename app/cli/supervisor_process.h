// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace moat::cli {

// Embedded mode: replaces this process with moat-supervisor, the spec on a
// sealed memfd, the record keys on `keysFd` (RecordKeys::toSealedMemfd).
// Returns (125) only when that fails.
// secretsFd: the session's secrets (keychain/session_secrets.h), or -1.
int runSupervisor(const std::string& specJson, int keysFd, int secretsFd, const std::string& jsonEventsPath,
                  int verbosity);

// The moat-supervisor next to this binary, else the installed one.
std::string supervisorPath();

}  // namespace moat::cli
