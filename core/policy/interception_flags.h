// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "policy/run_request.h"
#include "policy/sandbox_spec.h"

#include <string>
#include <string_view>

namespace moat {

// --rule, --secret and --upstream-ca: the flags that make moat's proxy see
// inside some hosts' TLS. Checked here so that a mistake is a clear error
// before anything starts: they need the proxy (--net proxy), a secret's
// variable must be one the sandbox can be given, and a rule must parse.
// upstreamCaPath is --upstream-ca already made canonical by the caller.
Status applyInterceptionFlags(SandboxSpec& spec, const RunRequest& request, const std::string& upstreamCaPath);

// --ask-timeout: a Duration of at most an hour. Longer, the agent's HTTP
// client has long given up, and a forgotten question would hold a
// connection open for the rest of the session.
Result<Duration> parseAskTimeout(std::string_view text);

}  // namespace moat
