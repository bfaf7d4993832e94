# SPDX-License-Identifier: Apache-2.0
# TLS interception (egress/tls/): the session's CA and the leaves it mints,
# the verified TLS to upstreams, and the relay that ends the sandbox's TLS at
# the proxy so that a filter (HTTP rules, secrets) decides each request of an
# intercepted host. The CA's private key lives only in this library's
# objects, in the supervisor's memory.
add_library(moat_egress_tls STATIC
  egress/tls/client_tls.cpp
  egress/tls/intercepted_relay.cpp
  egress/tls/intercepted_request_check.cpp
  egress/tls/openssl_handles.cpp
  egress/tls/session_authority.cpp
  egress/tls/upstream_tls.cpp)
target_link_libraries(moat_egress_tls PUBLIC moat_base moat_egress_rules OpenSSL::SSL OpenSSL::Crypto Boost::headers
                                             nlohmann_json::nlohmann_json
                                      PRIVATE moat_warnings)
# The same false positive of Boost 1.74's coroutine frames as in server.cmake.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(moat_egress_tls PRIVATE -Wno-mismatched-new-delete)
endif()
