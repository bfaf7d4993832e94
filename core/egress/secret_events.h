// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/secret_swap.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string_view>

namespace moat {

// The timeline events of the secret swap (docs/secrets.md, docs/records.md).
// Names, hosts and header names only: no field can hold a value.
//
// secret.use, one per secret put into a forwarded request:
//   {"secret": "GITHUB_TOKEN", "host": "api.github.com", "port": 443,
//    "headers": ["Authorization"]}
// secret.leak_attempt, one per refused request:
//   {"secret": "GITHUB_TOKEN", "host": "evil.example", "port": 443,
//    "where": "header Authorization",
//    "reason": "the placeholder of secret GITHUB_TOKEN is in the header
//               Authorization: it may be sent to api.github.com only, not to
//               evil.example:443"}
//   where is "request target", "body", "header name" or "header NAME".
inline constexpr const char* kSecretUseEvent = "secret.use";
inline constexpr const char* kSecretLeakAttemptEvent = "secret.leak_attempt";

nlohmann::json secretUseData(const SwapVerdict::Use& use, std::string_view host, uint16_t port);
// For a refused verdict only.
nlohmann::json secretLeakAttemptData(const SwapVerdict& verdict, std::string_view host, uint16_t port);

}  // namespace moat
