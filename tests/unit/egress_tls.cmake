# SPDX-License-Identifier: Apache-2.0
# Unit tests of TLS interception (core/egress/tls.cmake): the session CA on
# its own, and the proxy intercepting on loopback with real TLS clients
# (curl, openssl s_client) and a real TLS upstream (python3's http.server).
moat_unit_test(tst_tls_session_authority LIBRARIES moat_egress_tls)
moat_unit_test(tst_tls_interception LIBRARIES moat_egress_server)
target_compile_definitions(tst_tls_interception PRIVATE TLS_UPSTREAM_SCRIPT="${CMAKE_CURRENT_SOURCE_DIR}/tls_upstream.py")
# GCC 12's false positive on Boost 1.74's coroutine frames (core/egress/server.cmake).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(tst_tls_interception PRIVATE -Wno-mismatched-new-delete)
endif()
moat_unit_test(tst_tls_upstream_verification LIBRARIES moat_egress_tls)
target_compile_definitions(tst_tls_upstream_verification PRIVATE TLS_UPSTREAM_SCRIPT="${CMAKE_CURRENT_SOURCE_DIR}/tls_upstream.py")
# The session's filter (core/session/session_filter.h) inside real intercepted TLS.
moat_unit_test(tst_session_filter LIBRARIES moat_session_interception)
target_compile_definitions(tst_session_filter PRIVATE TLS_UPSTREAM_SCRIPT="${CMAKE_CURRENT_SOURCE_DIR}/tls_upstream.py")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(tst_session_filter PRIVATE -Wno-mismatched-new-delete)
endif()
