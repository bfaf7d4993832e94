// SPDX-License-Identifier: Apache-2.0
// Fuzzes what the HTTP proxy listener does with a request head from the
// agent: Beast's parser reads it (with the proxy's header limit), then
// ProxyRequest::classify decides what it asks for. Checks that a request is
// forwarded or tunnelled only to a destination its target names, and that
// the listener's own address is never forwarded.
#include "egress/egress_policy.h"
#include "egress/proxy_request.h"

#include <utility>

#include <boost/beast/core/buffers_prefix.hpp>
#include <boost/beast/http.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace http = boost::beast::http;
using moat::ProxyRequest;

namespace {

constexpr std::uint16_t kControlPort = 3128;

void check(bool condition)
{
    if (!condition) {
        __builtin_trap();
    }
}

std::string_view view(boost::beast::string_view text)
{
    return {text.data(), text.size()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    http::request_parser<http::empty_body> parser;
    parser.header_limit(32 * 1024);
    parser.eager(false);
    boost::system::error_code ec;
    parser.put(boost::asio::buffer(data, size), ec);
    if (ec || !parser.is_header_done()) {
        return 0;
    }
    const auto& request = parser.get();
    std::vector<std::string_view> hosts;
    for (const auto& field : request) {
        if (field.name() == http::field::host) {
            hosts.push_back(view(field.value()));
        }
    }
    const auto classified = ProxyRequest::classify(view(request.method_string()), view(request.target()), hosts,
                                                   kControlPort);
    switch (classified.kind) {
    case ProxyRequest::Kind::Invalid:
        check(!classified.problem.empty() && (classified.status == 400 || classified.status == 414));
        check(!classified.target);
        break;
    case ProxyRequest::Kind::Control:
        check(classified.target.has_value());
        break;
    case ProxyRequest::Kind::Tunnel:
    case ProxyRequest::Kind::Forward: {
        check(classified.target.has_value());
        const auto& target = *classified.target;
        check(!target.host().empty() && target.port() != 0);
        // Whatever Host headers said, each names the target's destination.
        const std::uint16_t defaultPort = classified.kind == ProxyRequest::Kind::Tunnel ? 443 : 80;
        for (auto host : hosts) {
            check(moat::EgressPolicy::hostHeaderNames(host, defaultPort, target.host(), target.port()) ||
                  classified.kind == ProxyRequest::Kind::Tunnel);
        }
        if (classified.kind == ProxyRequest::Kind::Forward) {
            check(!moat::EgressPolicy::sameDestination(target.host(), target.port(), "127.0.0.1", kControlPort));
        }
        break;
    }
    }
    return 0;
}
