// SPDX-License-Identifier: Apache-2.0
#include "base/program_path.h"

#include <unistd.h>

#include <climits>

#ifndef MOAT_LIBEXECDIR
#define MOAT_LIBEXECDIR "/usr/local/libexec/moat"
#endif

namespace moat {

std::string siblingProgramPath(const std::string& name)
{
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        std::string dir(self, static_cast<size_t>(n));
        dir = dir.substr(0, dir.find_last_of('/'));
        const std::string sibling = dir + "/" + name;
        if (::access(sibling.c_str(), X_OK) == 0) {
            return sibling;
        }
    }
    return std::string(MOAT_LIBEXECDIR) + "/" + name;
}

}  // namespace moat
