// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <chrono>
#include <string>
#include <string_view>

namespace moat {

// A positive length of time as a person writes it: "90s", "30m", "8h",
// "1h30m", "2d". Whole seconds; at most 30 days, so that a typo cannot make a
// sandbox that effectively never expires.
class Duration {
public:
    static constexpr std::chrono::seconds kMaximum{30L * 24 * 3600};

    static Result<Duration> parse(std::string_view text);
    static Duration fromSeconds(std::chrono::seconds seconds) { return Duration(seconds); }

    std::chrono::seconds seconds() const { return seconds_; }
    // The shortest canonical spelling, e.g. "1h30m".
    std::string toString() const;

    friend bool operator==(const Duration&, const Duration&) = default;

private:
    explicit Duration(std::chrono::seconds seconds) : seconds_(seconds) {}
    std::chrono::seconds seconds_{0};
};

}  // namespace moat
