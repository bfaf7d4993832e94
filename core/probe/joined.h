// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace moat::probe {

// items one after the other, separator between: for the checks' details.
inline std::string joined(const std::vector<std::string>& items, const std::string& separator = ", ")
{
    std::string text;
    for (const auto& item : items) {
        text += (text.empty() ? "" : separator) + item;
    }
    return text;
}

}  // namespace moat::probe
