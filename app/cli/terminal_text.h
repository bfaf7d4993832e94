// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

namespace moat::cli {

// `text` made harmless to a terminal: every control character (C0, DEL, C1)
// and every broken UTF-8 sequence shown as '?', cut to `maxBytes` at a
// character boundary ("..." appended when cut). For whatever moat prints
// that an agent wrote or chose (exec paths, host names, reasons): none of it
// may move the cursor, change colours, set the title or write the clipboard.
std::string terminalSafe(const std::string& text, std::size_t maxBytes = std::string::npos);

}  // namespace moat::cli
