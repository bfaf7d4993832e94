// SPDX-License-Identifier: Apache-2.0
#include "runtime/capabilities.h"

#include <linux/capability.h>
#include <sys/prctl.h>

#include <cap-ng.h>

#include <cerrno>

namespace moat {

Status Capabilities::dropAll()
{
    capng_clear(CAPNG_SELECT_ALL);
    if (capng_apply(CAPNG_SELECT_ALL) != 0) {
        return Error{"cannot drop capabilities", errno, "This is a bug in moat; please report it"};
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
        return Error::fromErrno("cannot clear ambient capabilities", errno);
    }
    if (capng_have_capabilities(CAPNG_SELECT_ALL) != CAPNG_NONE) {
        return Error{"capabilities remained after dropping them", 0, "This is a bug in moat; please report it"};
    }
    return {};
}

Status Capabilities::dropInheritable()
{
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
        return Error::fromErrno("cannot clear ambient capabilities", errno);
    }
    capng_get_caps_process();
    for (int cap = 0; cap <= CAP_LAST_CAP; ++cap) {
        capng_update(CAPNG_DROP, CAPNG_INHERITABLE, static_cast<unsigned>(cap));
    }
    if (capng_apply(CAPNG_SELECT_CAPS) != 0) {
        return Error::fromErrno("cannot clear inheritable capabilities", errno);
    }
    return {};
}

}  // namespace moat
