// SPDX-License-Identifier: Apache-2.0
#include "secret_placeholder.h"

#include "egress/secret_names.h"

#include <sys/random.h>

#include <cerrno>

namespace moat {

Result<std::string> makeSecretPlaceholder(std::string_view name)
{
    if (auto valid = checkSecretName(name); !valid) {
        return valid.error();
    }
    unsigned char bytes[16];
    size_t filled = 0;
    while (filled < sizeof bytes) {
        const ssize_t got = ::getrandom(bytes + filled, sizeof bytes - filled, 0);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            return Error::fromErrno("cannot draw random bytes for a secret's placeholder", errno);
        }
        filled += static_cast<size_t>(got);
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string placeholder(kSecretPlaceholderPrefix);
    placeholder.append(name).push_back('-');
    for (unsigned char byte : bytes) {
        placeholder.push_back(kHex[byte >> 4]);
        placeholder.push_back(kHex[byte & 0x0F]);
    }
    return placeholder;
}

}  // namespace moat
