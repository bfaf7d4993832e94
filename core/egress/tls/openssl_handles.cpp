// SPDX-License-Identifier: Apache-2.0
#include "egress/tls/openssl_handles.h"

#include <openssl/err.h>

namespace moat::tls {

std::string takeOpenSslError(const std::string& fallback)
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0) {
        return fallback;
    }
    const char* reason = ERR_reason_error_string(code);
    return reason ? std::string(reason) : fallback;
}

}  // namespace moat::tls
