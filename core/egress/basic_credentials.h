// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace moat {

// The credentials of `Authorization: Basic <base64(user:password)>`
// (RFC 7617), for the secret swap, which must see a placeholder inside them
// and put the real value back in the same encoding.

// The decoded "user:password" when `fieldValue` is "Basic <token>" (scheme
// in any case, spaces around the token), the token being standard base64
// with or without padding; nullopt otherwise.
std::optional<std::string> decodeBasicCredentials(std::string_view fieldValue);

// "Basic " + base64 of `credentials`, padded.
std::string encodeBasicCredentials(std::string_view credentials);

}  // namespace moat
