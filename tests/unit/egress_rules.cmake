# SPDX-License-Identifier: Apache-2.0
# Unit tests of the egress rules (core/egress/rules.cmake).
moat_unit_test(tst_host_pattern_parsing LIBRARIES moat_egress_rules)
moat_unit_test(tst_ip_address_classification LIBRARIES moat_egress_rules)
moat_unit_test(tst_egress_policy_decisions LIBRARIES moat_egress_rules)
