# SPDX-License-Identifier: Apache-2.0
# The egress servers the supervisor runs on sockets handed out of the
# sandbox's network namespace (Boost.Asio, one thread).
add_library(moat_egress_server STATIC egress/dns_stub.cpp)
target_link_libraries(moat_egress_server PUBLIC moat_egress_protocol moat_base Boost::headers spdlog::spdlog
                                         PRIVATE moat_warnings)
