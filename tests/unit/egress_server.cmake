# SPDX-License-Identifier: Apache-2.0
# Unit tests of the egress proxy itself (core/egress/server.cmake), served
# in-process on loopback sockets with short limits.
moat_unit_test(tst_egress_proxy_bounds LIBRARIES moat_egress_server)
moat_unit_test(tst_control_api LIBRARIES moat_egress_server)
