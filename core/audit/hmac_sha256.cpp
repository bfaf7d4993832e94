// SPDX-License-Identifier: Apache-2.0
#include "audit/hmac_sha256.h"

#include "audit/hex.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstdlib>

namespace moat {

void HmacSha256::Deleter::operator()(evp_mac_ctx_st* ctx) const
{
    EVP_MAC_CTX_free(ctx);
}

Result<HmacSha256> HmacSha256::create(const unsigned char* key, size_t keySize)
{
    EVP_MAC* algorithm = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    if (!algorithm) {
        return Error{"OpenSSL offers no HMAC", 0, "Install OpenSSL 3 (Debian: libssl3)"};
    }
    HmacSha256 hmac;
    hmac.ctx_.reset(EVP_MAC_CTX_new(algorithm));
    EVP_MAC_free(algorithm);  // the context holds its own reference
    char digest[] = "SHA256";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                                 OSSL_PARAM_construct_end()};
    if (!hmac.ctx_ || EVP_MAC_init(hmac.ctx_.get(), key, keySize, params) != 1) {
        return Error{"cannot set up HMAC-SHA-256 with the record key"};
    }
    return hmac;
}

HmacSha256::~HmacSha256() = default;
HmacSha256::HmacSha256(HmacSha256&&) noexcept = default;
HmacSha256& HmacSha256::operator=(HmacSha256&&) noexcept = default;

HmacSha256::Mac HmacSha256::mac(std::string_view first, std::string_view second)
{
    Mac out{};
    size_t length = 0;
    // A null key restarts the computation under the key given to create().
    auto update = [this](std::string_view piece) {
        return piece.empty() ||
               EVP_MAC_update(ctx_.get(), reinterpret_cast<const unsigned char*>(piece.data()), piece.size()) == 1;
    };
    if (EVP_MAC_init(ctx_.get(), nullptr, 0, nullptr) != 1 || !update(first) || !update(second) ||
        EVP_MAC_final(ctx_.get(), out.data(), &length, out.size()) != 1 || length != kSize) {
        std::abort();  // only a broken OpenSSL gets here
    }
    return out;
}

std::string HmacSha256::hex(std::string_view first, std::string_view second)
{
    const Mac out = mac(first, second);
    return hex::encode(out.data(), out.size());
}

}  // namespace moat
