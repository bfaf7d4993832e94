// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "base/error.h"
#include "policy/escalation_request.h"
#include "policy/sandbox_spec.h"

namespace moat {

// The spec of the sandbox that follows `parent` once `request` (id
// `requestId`) was approved: the parent's spec widened by exactly what was
// asked, never narrowed and never anything else (ARCHITECTURE.md, "Nothing
// widens from inside": the running sandbox gains nothing, its successor does).
//
//   session   newSessionId; parent = parent.sessionId; request = requestId
//   name      the parent's name with the new id's first six characters
//   hosts     appended to the parent's, without duplicates; under --net none
//             asking for hosts means --net proxy with those hosts
//   sudo, docker  set when asked (never cleared)
//   net open  when asked; allow_hosts are then cleared (nothing filters)
//   command   the request's, else the parent's
//   ttl, image, workspace, mounts, environment: the parent's
//
// Pure: no file system, no randomness (the caller makes the id). An Error
// when the widened spec cannot exist in this build (docker).
Result<SandboxSpec> successorSpec(const SandboxSpec& parent, const EscalationRequest& request,
                                  const std::string& requestId, const std::string& newSessionId);

}  // namespace moat
