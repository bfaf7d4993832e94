// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace moat {

struct InterceptedRequestRefusal {
    unsigned status = 400;
    std::string reason;
};

// The checks a request inside an intercepted tunnel to host:port passes
// before its filter sees it. The tunnel fixed the destination; the request
// may not name another one: its target is a path (origin-form, or "*" for
// OPTIONS), and its single Host header names host:port. A Host naming
// another virtual host of the same server (fronting through a CDN) is
// refused here, which a blind tunnel cannot see. CONNECT inside a tunnel is
// refused too. nullopt: the request may go on to the filter.
std::optional<InterceptedRequestRefusal> checkInterceptedRequest(std::string_view method, std::string_view target,
                                                                 std::span<const std::string_view> hostHeaders,
                                                                 std::string_view host, std::uint16_t port);

}  // namespace moat
