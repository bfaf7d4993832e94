# SPDX-License-Identifier: Apache-2.0
# What a session's proxy does inside intercepted TLS: the filter that applies
# the session's HTTP rules (asking a person through the HttpAskDesk) and swaps
# its secrets, and the handoff that brings the secrets' values to the
# supervisor. Apart from moat_session so that the supervisor's core does not
# depend on the interception's libraries.
add_library(moat_session_interception STATIC
  session/secret_handoff.cpp
  session/session_filter.cpp)
target_link_libraries(moat_session_interception PUBLIC moat_session moat_egress_tls moat_http_rules moat_egress_secrets
                                                PRIVATE moat_warnings)
