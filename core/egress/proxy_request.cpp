// SPDX-License-Identifier: Apache-2.0
#include "egress/proxy_request.h"

#include "egress/egress_policy.h"

namespace moat {

namespace {

ProxyRequest invalid(unsigned status, std::string problem)
{
    ProxyRequest request;
    request.kind = ProxyRequest::Kind::Invalid;
    request.status = status;
    request.problem = std::move(problem);
    return request;
}

bool namesListener(const RequestTarget& target, std::uint16_t controlPort)
{
    return target.port() == controlPort &&
           (EgressPolicy::sameDestination(target.host(), target.port(), "127.0.0.1", controlPort) ||
            EgressPolicy::sameDestination(target.host(), target.port(), "localhost", controlPort));
}

}  // namespace

ProxyRequest ProxyRequest::classify(std::string_view method, std::string_view target,
                                    std::span<const std::string_view> hostHeaders, std::uint16_t controlPort)
{
    if (target.size() > RequestTarget::kMaxTargetLength) {
        return invalid(414, "the request target is longer than " + std::to_string(RequestTarget::kMaxTargetLength) +
                                " bytes");
    }
    ProxyRequest request;
    if (!target.empty() && target.front() == '/') {
        auto origin = RequestTarget::parseOriginForm(method, target);
        if (!origin) {
            return invalid(400, origin.error().message());
        }
        request.kind = Kind::Control;
        request.target = std::move(origin.value());
        return request;
    }
    auto parsed = RequestTarget::parse(method, target, hostHeaders);
    if (!parsed) {
        return invalid(400, parsed.error().message());
    }
    if (parsed->kind() == RequestTarget::Kind::Authority) {
        request.kind = Kind::Tunnel;
    } else if (namesListener(*parsed, controlPort)) {
        request.kind = Kind::Control;
    } else {
        request.kind = Kind::Forward;
    }
    request.target = std::move(parsed.value());
    return request;
}

}  // namespace moat
