// SPDX-License-Identifier: Apache-2.0
#include "audit/event_budget.h"

namespace moat {

bool EventBudget::admit(std::chrono::steady_clock::time_point now)
{
    if (now - windowStart_ >= std::chrono::seconds(1)) {
        windowStart_ = now;
        usedThisSecond_ = 0;
    }
    if (usedThisSecond_ < perSecond_) {
        ++usedThisSecond_;
        return true;
    }
    ++suppressed_;
    return false;
}

uint64_t EventBudget::takeSuppressed()
{
    const uint64_t count = suppressed_;
    suppressed_ = 0;
    return count;
}

}  // namespace moat
