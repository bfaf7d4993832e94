// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

namespace moat {

// Capability sets of the calling thread, through libcap-ng.
class Capabilities {
public:
    // Empties the effective, permitted, inheritable, ambient and bounding
    // sets for good (the bounding set needs CAP_SETPCAP, which sandbox init
    // holds in its own user namespace until this call).
    static Status dropAll();
    // Keeps the user-namespace capabilities (--sudo) but empties the ambient
    // and inheritable sets.
    static Status dropInheritable();
};

}  // namespace moat
