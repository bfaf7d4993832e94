# SPDX-License-Identifier: Apache-2.0
# The fuzz run of the push-body parser (core/policy/git_push.cpp), which
# reads bytes the agent sends: tests/fuzz builds fuzz_git_push with clang and
# libFuzzer as it does the egress parsers (see egress_protocol.cmake), in a
# directory of its own so that the two runs never share a build tree.
add_test(NAME fuzz_policy_parsers COMMAND ${PROJECT_SOURCE_DIR}/tests/fuzz/run.sh ${CMAKE_BINARY_DIR}/fuzz-policy)
set_tests_properties(fuzz_policy_parsers PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77 TIMEOUT 300
                     ENVIRONMENT "MOAT_FUZZ_TARGETS=fuzz_git_push")
