// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <string>
#include <string_view>

namespace moat {

// The stand-in a sandbox gets instead of a secret (moat run --secret NAME):
//
//   moat-placeholder-<NAME>-<32 lowercase hex digits>
//
// e.g. moat-placeholder-GITHUB_TOKEN-3f9c0a6e1b27d4c58e0f1a2b3c4d5e6f. The
// hex is 128 bits from getrandom(2), new for every secret in every session:
// knowing one session's placeholder says nothing about another's, and it
// cannot be guessed. The name is there for the person reading a request or
// a log; it is not secret.
//
// The shape was chosen to pass where a token passes: only letters, digits,
// '-' and '_' (no ':' to break Basic credentials, nothing a URL, a header or
// a shell would quote), one word, 51 to 114 characters. A client that checks
// a token's vendor shape (a prefix such as "ghp_" or "sk-", a fixed length)
// will refuse it; none of gh, git, curl, the OpenAI or Anthropic SDKs do.
Result<std::string> makeSecretPlaceholder(std::string_view name);

inline constexpr std::string_view kSecretPlaceholderPrefix = "moat-placeholder-";

}  // namespace moat
