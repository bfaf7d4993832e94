// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <string_view>

namespace moat {

// What `moat secret set` accepts, checked the same way wherever a secret
// enters moat (the CLI, the keychain store, the swap). Messages never quote
// a value.

// A secret's name becomes an environment variable's name by default
// (--secret NAME): 1 to 64 of [A-Za-z0-9_], not starting with a digit.
Status checkSecretName(std::string_view name);

// A header a secret may fill: an HTTP field name (RFC 9110 token), 1 to 64
// characters.
Status checkSecretHeader(std::string_view header);

// A value goes into an HTTP header as it is: 1 to LockedSecret::kMaxSize
// bytes of UTF-8 text without control characters (a CR or LF would let it
// add headers of its own), and no leading or trailing space or tab (which
// HTTP strips, so the upstream would not see what was stored).
Status checkSecretValue(std::string_view value);

// The header a secret fills when none is given.
inline constexpr std::string_view kDefaultSecretHeader = "Authorization";

}  // namespace moat
