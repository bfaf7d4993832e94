// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace moat {

// The variables a command sees under --net proxy, so that ordinary tools use
// moat's proxy (egress_endpoints.h) without being told:
//   HTTP_PROXY, HTTPS_PROXY, http_proxy, https_proxy   http://127.0.0.1:3128
//   ALL_PROXY, all_proxy                                socks5h://127.0.0.1:1080
//   NO_PROXY, no_proxy                                  localhost,127.0.0.1
//   MOAT_API                                            http://127.0.0.1:3128
// socks5h, not socks5: names are resolved by the proxy, outside, since the
// sandbox's own DNS answers nothing. MOAT_API is the control endpoint, served
// by the supervisor on the HTTP proxy's listener.
std::map<std::string, std::string> proxyEnvironment();

// Whether name is one of the proxy variables above (not MOAT_API), in any
// letter case. Clients disagree on case (curl reads http_proxy only in lower
// case, Python's urllib reads every spelling of *_proxy and prefers lower
// case), so "Https_Proxy" would compete with moat's own value: under --net
// proxy every spelling is moat's.
bool isProxyVariable(std::string_view name);

}  // namespace moat
