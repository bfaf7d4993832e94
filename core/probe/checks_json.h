// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "probe/check.h"

#include <string>

namespace moat::probe {

// How moat-probe, inside a sandbox, hands its checks to `moat probe` outside:
// one JSON object, {"checks":[{"name","ok","detail","value"}]}.
std::string checksToJson(const Checks& checks);

// Strict, and bounded: the text comes from inside a sandbox. Names must be
// snake_case and unique, details printable and short; anything else is an
// error, never a check.
Result<Checks> checksFromJson(const std::string& text);

}  // namespace moat::probe
