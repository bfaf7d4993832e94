// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/moat_paths.h"
#include "base/unique_fd.h"

#include <string>
#include <vector>

namespace moat::keychain {

// The values of the secrets a session asked for (--secret), fetched from the
// keychain with their bindings and written to the sealed memfd moat-supervisor
// reads (session/secret_handoff.h). Used by moat in embedded mode and by
// moatd, so that both hand over the same thing. Each value passes through
// locked memory only; an error names the secret, never its value.
Result<UniqueFd> handOffSessionSecrets(const MoatPaths& paths, const std::vector<std::string>& names);

}  // namespace moat::keychain
