// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

#include "base/error.h"
#include "base/unique_fd.h"

namespace moat {

// A memfd holding `bytes`, sealed against every change and rewound: how a
// session's spec reaches moat-supervisor (from `moat` or moatd). The reader
// gets exactly what was written; nobody can change it in between.
Result<UniqueFd> sealedMemfd(const char* name, std::string_view bytes);

}  // namespace moat
