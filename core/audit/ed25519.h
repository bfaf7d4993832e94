// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <array>
#include <string_view>

namespace moat::ed25519 {

// Ed25519 (RFC 8032) through OpenSSL 3: a private key is its 32-byte seed.
inline constexpr size_t kSeedSize = 32;
inline constexpr size_t kPublicKeySize = 32;
inline constexpr size_t kSignatureSize = 64;
using PublicKey = std::array<unsigned char, kPublicKeySize>;
using Signature = std::array<unsigned char, kSignatureSize>;

Result<PublicKey> publicKey(const unsigned char* seed);
Result<Signature> sign(const unsigned char* seed, std::string_view message);
// True only for a valid signature of `message` by `key`.
bool verify(const PublicKey& key, std::string_view message, const Signature& signature);

}  // namespace moat::ed25519
