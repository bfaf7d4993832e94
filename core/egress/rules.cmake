# SPDX-License-Identifier: Apache-2.0
# The egress rules: what --allow-host permits and how an address is
# classified. Pure decisions, no sockets, so that every trick an agent may try
# is a row in a unit test rather than a packet on the network.
add_library(moat_egress_rules STATIC
  egress/address_class.cpp
  egress/host_pattern.cpp
  egress/ip_address.cpp
  egress/egress_policy.cpp)
target_link_libraries(moat_egress_rules PUBLIC moat_base PRIVATE moat_warnings)
