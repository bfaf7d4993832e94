// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>

namespace moat {

// How many events of one kind the timeline takes per second. An agent can
// make DNS queries (or any reported action) as fast as it likes; the record
// keeps the first `perSecond` of each second and counts the rest, so a flood
// shows up as a number instead of filling the disk.
class EventBudget {
public:
    explicit EventBudget(uint32_t perSecond) : perSecond_(perSecond) {}

    // True when this event may be recorded now.
    bool admit(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
    // Events refused since the last admitted one (reset when read).
    uint64_t takeSuppressed();

private:
    uint32_t perSecond_;
    uint32_t usedThisSecond_ = 0;
    uint64_t suppressed_ = 0;
    std::chrono::steady_clock::time_point windowStart_{};
};

}  // namespace moat
