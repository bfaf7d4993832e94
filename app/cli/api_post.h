// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <chrono>
#include <string>

namespace moat::cli {

// An answer of the control endpoint ($MOAT_API) inside a sandbox.
struct ApiAnswer {
    unsigned status = 0;
    std::string body;
};

// POSTs a JSON body to baseUrl + path with a plain blocking HTTP/1.1 client
// on a TCP socket. baseUrl is MOAT_API: http://HOST:PORT[/PREFIX] with HOST
// an IP literal or localhost (the sandbox resolves no names). No proxy: the
// endpoint is served on the proxy listener itself. `wait` bounds the whole
// exchange (the answer may be held until a person decides).
Result<ApiAnswer> postJson(const std::string& baseUrl, const std::string& path, const std::string& body,
                           std::chrono::seconds wait);

}  // namespace moat::cli
