// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

namespace moat::probe {

// inner_sandbox_layers: whether a program here can confine itself further
// with its own Landlock domain and its own seccomp filter, as Codex's and
// nono's sandboxes do. A forked child sets no_new_privs, restricts itself
// with a Landlock ruleset and loads an allow-all filter, then exits: both
// layers die with it and nothing outside the child changes.
Check innerSandboxLayers();

}  // namespace moat::probe
