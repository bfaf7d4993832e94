# SPDX-License-Identifier: Apache-2.0
# HTTP and push rules (docs/rules.md): parsing, matching and the decision for
# one request or one push, from strings to answers with no socket, so that
# every trick an agent may try on a path or a push body is a unit-test row.
# The egress proxy links it; it needs only the host patterns below it.
add_library(moat_http_rules STATIC
  policy/git_push.cpp
  policy/http_rule.cpp
  policy/http_rules.cpp
  policy/path_glob.cpp)
target_link_libraries(moat_http_rules PUBLIC moat_base moat_egress_rules PRIVATE moat_warnings)

# Profiles (profiles/NAME.toml): read by the CLI with toml++, apart from
# moat_http_rules so that the supervisor does not load toml++.
add_library(moat_profiles STATIC policy/profile.cpp)
target_link_libraries(moat_profiles PUBLIC moat_http_rules moat_policy PRIVATE tomlplusplus::tomlplusplus moat_warnings)
target_compile_definitions(moat_profiles PRIVATE MOAT_PROFILES_DIR="${CMAKE_INSTALL_FULL_DATADIR}/moat/profiles")

# The built-in profiles: installed under share/moat/profiles, and copied to
# the build tree's share/moat/profiles, where build/bin/moat looks first
# (builtinProfileDir(): ../share/moat/profiles beside the running binary).
file(GLOB MOAT_BUILTIN_PROFILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/resources/profiles/*.toml)
foreach(profile ${MOAT_BUILTIN_PROFILES})
  get_filename_component(profile_name ${profile} NAME)
  configure_file(${profile} ${CMAKE_BINARY_DIR}/share/moat/profiles/${profile_name} COPYONLY)
endforeach()
install(FILES ${MOAT_BUILTIN_PROFILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/moat/profiles)
