# SPDX-License-Identifier: Apache-2.0
# What a session's proxy does inside intercepted TLS: the filter that applies
# the session's HTTP rules (asking a person through the HttpAskDesk) and swaps
# its secrets, and the handoff that brings the secrets' values to the
# supervisor. Apart from moat_session so that the supervisor's core does not
# depend on the interception's libraries.
add_library(moat_secret_handoff STATIC session/secret_handoff.cpp)
target_link_libraries(moat_secret_handoff PUBLIC moat_base moat_egress_secrets PRIVATE moat_warnings)

add_library(moat_session_interception STATIC session/session_filter.cpp session/session_interception.cpp)
target_link_libraries(moat_session_interception PUBLIC moat_session moat_secret_handoff moat_egress_tls moat_http_rules
                                                       moat_egress_secrets
                                                PRIVATE moat_warnings)
# Boost 1.74's coroutine frames: the false positive explained in egress/server.cmake.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(moat_session_interception PRIVATE -Wno-mismatched-new-delete)
endif()
