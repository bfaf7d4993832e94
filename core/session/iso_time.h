// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <string>

namespace moat {

// "2026-12-01T13:00:00Z": how status.json, the records' data and the parent
// link write a moment (UTC, whole seconds).
std::string isoTime(std::chrono::system_clock::time_point when);

}  // namespace moat
