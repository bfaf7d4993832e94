// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/request_target.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace moat {

// What one request head sent to the HTTP proxy listener asks for, decided
// from its method, request-target and Host headers before any rule or
// socket is involved. Pure, so that the fuzzer exercises exactly the
// decision the proxy makes.
struct ProxyRequest {
    enum class Kind {
        Control,  // for the control endpoint ($MOAT_API): answered, never forwarded
        Tunnel,   // CONNECT host:port
        Forward,  // absolute-form http://host[:port]/path
        Invalid,  // refused with `status` and `problem`
    };

    Kind kind = Kind::Invalid;
    std::optional<RequestTarget> target;  // Tunnel, Forward, and Control (origin form)
    unsigned status = 400;                // Invalid: 400 or 414
    std::string problem;                  // Invalid: one line for the agent and the timeline

    // controlPort: the listener's own port. A request for
    // http://127.0.0.1:<controlPort>/..., in any spelling of that address or
    // as localhost, is for the control endpoint: the agent's view of the
    // listener is never forwarded, even when 127.0.0.1 was allowed.
    static ProxyRequest classify(std::string_view method, std::string_view target,
                                 std::span<const std::string_view> hostHeaders, std::uint16_t controlPort);
};

}  // namespace moat
