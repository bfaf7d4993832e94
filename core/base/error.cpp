// SPDX-License-Identifier: Apache-2.0
#include "base/error.h"

#include <cstring>

namespace moat {

Error Error::fromErrno(std::string what, int errnum, std::string hint)
{
    return Error{std::move(what), errnum, std::move(hint)};
}

std::string Error::message() const
{
    std::string text = what;
    if (errnum != 0) {
        text += ": ";
        text += std::strerror(errnum);
    }
    if (!hint.empty()) {
        text += ". ";
        text += hint;
    }
    return text;
}

}  // namespace moat
