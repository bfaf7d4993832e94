// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <string>
#include <vector>

namespace moat::probe {

// Criteria 4 and 6 of docs/probe.md: what in the environment and the home is
// worth stealing. Only names, existence and readability are looked at:
// no value and no file's contents are ever read, so none can be printed.

// Whether an environment variable's NAME looks like it holds a credential
// (*TOKEN*, *SECRET*, *PASSWORD*, *ACCESS_KEY*, *_KEY, ...), in any letter
// case; a prefix such as AWS_ alone is not enough (AWS_REGION).
bool looksLikeCredentialName(const std::string& name);

// The names (the text before '=') of environ entries that look like
// credentials; the values are skipped without being copied.
std::vector<std::string> credentialNames(const char* const* environment);

// credential_env_names: over this process's environment.
Check credentialEnvNames();

// credential_files: ~/.aws/credentials, ~/.ssh/id_*, ~/.netrc, ... that this
// user can read (value: how many exist, readable or not).
Check credentialFiles(const std::string& home);

// platform_tokens: files that let code manage the platform or the account
// (a Kubernetes service account token, cloud CLI logins, a kubeconfig).
Check platformTokens(const std::string& home);

}  // namespace moat::probe
