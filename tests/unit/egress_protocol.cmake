# SPDX-License-Identifier: Apache-2.0
# Unit tests of the egress protocol parsers (core/egress/protocol.cmake), and
# their fuzz run. The fuzz targets need clang and libFuzzer, which the GCC
# build does not have, so tests/fuzz is a project of its own that run.sh
# configures and builds; it exits 77 (skipped) when clang++-14 or the
# libFuzzer runtime is missing.
moat_unit_test(tst_request_target_parsing LIBRARIES moat_egress_protocol)
moat_unit_test(tst_socks5_messages LIBRARIES moat_egress_protocol)
moat_unit_test(tst_dns_stub_answer LIBRARIES moat_egress_protocol)

add_test(NAME fuzz_egress_parsers COMMAND ${PROJECT_SOURCE_DIR}/tests/fuzz/run.sh ${CMAKE_BINARY_DIR}/fuzz)
set_tests_properties(fuzz_egress_parsers PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77 TIMEOUT 300)
moat_unit_test(tst_tls_client_hello LIBRARIES moat_egress_protocol)
moat_unit_test(tst_proxy_request_classification LIBRARIES moat_egress_protocol)
