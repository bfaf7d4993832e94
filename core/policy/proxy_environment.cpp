// SPDX-License-Identifier: Apache-2.0
#include "policy/proxy_environment.h"

#include "policy/egress_endpoints.h"

#include <algorithm>
#include <cstdint>

namespace moat {

namespace {

std::string loopbackUrl(std::string_view scheme, uint16_t port)
{
    return std::string(scheme) + "://" + kEgressLoopbackAddress + ":" + std::to_string(port);
}

constexpr std::string_view kProxyVariables[] = {"http_proxy", "https_proxy", "all_proxy", "no_proxy"};

}  // namespace

std::map<std::string, std::string> proxyEnvironment()
{
    const std::string http = loopbackUrl("http", kProxyHttpPort);
    const std::string socks = loopbackUrl("socks5h", kProxySocksPort);
    const std::string direct = std::string("localhost,") + kEgressLoopbackAddress;
    return {
        {"HTTP_PROXY", http}, {"http_proxy", http}, {"HTTPS_PROXY", http}, {"https_proxy", http}, {"ALL_PROXY", socks},
        {"all_proxy", socks}, {"NO_PROXY", direct}, {"no_proxy", direct},  {"MOAT_API", http},
    };
}

bool isProxyVariable(std::string_view name)
{
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    return std::find(std::begin(kProxyVariables), std::end(kProxyVariables), lower) != std::end(kProxyVariables);
}

}  // namespace moat
