# SPDX-License-Identifier: Apache-2.0
# The secret swap: values kept in locked memory, per-session placeholders,
# and the decision, per request, of where a placeholder becomes the real
# value and where it is a leak attempt (docs/secrets.md). Pure: no sockets,
# no logging; the TLS relay calls it, the supervisor records what it says.
add_library(moat_egress_secrets STATIC
  egress/basic_credentials.cpp
  egress/locked_secret.cpp
  egress/secret_events.cpp
  egress/secret_names.cpp
  egress/secret_placeholder.cpp
  egress/secret_swap.cpp)
target_link_libraries(moat_egress_secrets PUBLIC moat_egress_rules moat_base nlohmann_json::nlohmann_json
                                          PRIVATE moat_warnings)
