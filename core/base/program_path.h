// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace moat {

// Where a moat program lives: beside the running binary (a build tree, or
// the same install), else in moat's libexec directory. Used by `moat` and
// moatd to find moat-supervisor, so that both always start the same one.
std::string siblingProgramPath(const std::string& name);

inline std::string supervisorProgramPath()
{
    return siblingProgramPath("moat-supervisor");
}

}  // namespace moat
