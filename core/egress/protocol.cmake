# SPDX-License-Identifier: Apache-2.0
# The egress proxy's protocol parsers: HTTP request targets, SOCKS5 messages
# and the DNS stub's answers. Pure byte handling, no sockets, so that each can
# be unit-tested and fuzzed on its own (tests/fuzz builds these same sources).
add_library(moat_egress_protocol STATIC
  egress/request_target.cpp
  egress/socks5_messages.cpp
  egress/dns_stub_answer.cpp
  egress/tls_client_hello.cpp
  egress/proxy_request.cpp)
target_link_libraries(moat_egress_protocol PUBLIC moat_base PRIVATE moat_egress_rules moat_warnings)
