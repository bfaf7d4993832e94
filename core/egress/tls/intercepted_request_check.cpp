// SPDX-License-Identifier: Apache-2.0
#include "egress/tls/intercepted_request_check.h"

#include "egress/egress_policy.h"

namespace moat {

namespace {

// Every header of an HTTPS request names port 443 when it names none.
constexpr std::uint16_t kHttpsPort = 443;

std::string destination(std::string_view host, std::uint16_t port)
{
    const bool bracket = host.find(':') != std::string_view::npos;
    return (bracket ? "[" + std::string(host) + "]" : std::string(host)) + ":" + std::to_string(port);
}

}  // namespace

std::optional<InterceptedRequestRefusal> checkInterceptedRequest(std::string_view method, std::string_view target,
                                                                 std::span<const std::string_view> hostHeaders,
                                                                 std::string_view host, std::uint16_t port)
{
    if (method == "CONNECT") {
        return InterceptedRequestRefusal{405, "CONNECT inside a tunnel to " + destination(host, port) +
                                                  " is refused; open a tunnel to the other host instead"};
    }
    const bool originForm = !target.empty() && target.front() == '/';
    const bool asterisk = target == "*" && method == "OPTIONS";
    if (!originForm && !asterisk) {
        return InterceptedRequestRefusal{
            400, "inside the tunnel to " + destination(host, port) + " a request names a path, not another URL"};
    }
    if (hostHeaders.size() != 1) {
        return InterceptedRequestRefusal{400, hostHeaders.empty()
                                                  ? std::string("the request has no Host header")
                                                  : std::string("the request has more than one Host header")};
    }
    if (!EgressPolicy::hostHeaderNames(hostHeaders.front(), kHttpsPort, host, port)) {
        return InterceptedRequestRefusal{
            421, "the request's Host header names another host than the tunnel's destination " +
                     destination(host, port) + "; a tunnel reaches only the host it was opened to"};
    }
    return std::nullopt;
}

}  // namespace moat
