// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "base/unique_fd.h"
#include "egress/locked_secret.h"

#include <string>
#include <string_view>
#include <vector>

namespace moat {

// How the real values of a session's secrets reach moat-supervisor: whoever
// starts it (moat in embedded mode, moatd otherwise) reads them from the
// keychain and hands them over on a sealed memfd (--secrets-fd), never on a
// command line, in an environment or in a file. The supervisor reads each
// value straight from the mapping into locked memory (LockedSecret).
//
// Format: "MOATSEC1", then u32 count, then per secret: name, hosts, headers
// (u32 count and length-prefixed strings) and the value (u32 length and the
// bytes). Little-endian; every length bounded.
struct SecretForHandoff {
    std::string name;
    std::vector<std::string> hosts;    // host patterns, as `moat secret set --host` took them
    std::vector<std::string> headers;  // header names; empty: Authorization
    std::string_view value;            // the writer's; not copied beyond the memfd
};

struct HandedOverSecret {
    std::string name;
    std::vector<std::string> hosts;
    std::vector<std::string> headers;
    LockedSecret value;
};

Result<UniqueFd> writeSecretHandoff(const std::vector<SecretForHandoff>& secrets);
// Reads the memfd (sealed, as written above); the values go to locked memory.
Result<std::vector<HandedOverSecret>> readSecretHandoff(int fd);

}  // namespace moat
