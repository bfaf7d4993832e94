# SPDX-License-Identifier: Apache-2.0
# Unit tests of the egress protocol parsers (core/egress/protocol.cmake).
moat_unit_test(tst_request_target_parsing LIBRARIES moat_egress_protocol)
moat_unit_test(tst_socks5_messages LIBRARIES moat_egress_protocol)
moat_unit_test(tst_dns_stub_answer LIBRARIES moat_egress_protocol)
