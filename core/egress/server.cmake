# SPDX-License-Identifier: Apache-2.0
# The egress servers the supervisor runs on sockets handed out of the
# sandbox's network namespace (Boost.Asio and Boost.Beast, one thread): the
# DNS stub and the HTTP/SOCKS5 proxy with the control endpoint.
add_library(moat_egress_server STATIC
  egress/control_api.cpp
  egress/control_exchange.cpp
  egress/dns_stub.cpp
  egress/egress_proxy.cpp
  egress/http_proxy_client.cpp
  egress/pipe_pool.cpp
  egress/server_name_check.cpp
  egress/socks5_client.cpp
  egress/splice_tunnel.cpp
  egress/upstream_dialer.cpp)
target_link_libraries(moat_egress_server PUBLIC moat_egress_protocol moat_egress_rules moat_egress_tls moat_base Boost::headers
                                                spdlog::spdlog nlohmann_json::nlohmann_json
                                         PRIVATE moat_warnings)
# GCC 12 at -O2 reports Asio's coroutine frame allocator (a recycling
# allocator with a matching sized delete) as mismatched new/delete: a known
# false positive in Boost 1.74's awaitable frames, not in moat's code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(moat_egress_server PRIVATE -Wno-mismatched-new-delete)
endif()
