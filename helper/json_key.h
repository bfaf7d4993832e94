// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace moat::helper {

// A JSON key of moatd's messages and replies (ASCII literals).
inline QString key(const char* name)
{
    return QString::fromLatin1(name);
}

}  // namespace moat::helper
