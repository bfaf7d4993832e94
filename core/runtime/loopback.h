// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

namespace moat {

// Brings up `lo` in the calling process's (fresh) network namespace: the
// only interface a sandbox has. Needs CAP_NET_ADMIN in the namespace's owner.
Status bringUpLoopback();

}  // namespace moat
