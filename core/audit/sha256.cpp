// SPDX-License-Identifier: Apache-2.0
#include "audit/sha256.h"

#include "audit/hex.h"

#include <openssl/evp.h>

#include <cstdlib>

namespace moat {

namespace {

// Fetched once: EVP_sha256() would make OpenSSL 3 look the algorithm up on
// every EVP_DigestInit_ex.
const EVP_MD* sha256Algorithm()
{
    static EVP_MD* algorithm = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return algorithm;
}

}  // namespace

void Sha256::Deleter::operator()(evp_md_ctx_st* ctx) const
{
    EVP_MD_CTX_free(ctx);
}

Sha256::Sha256() : ctx_(EVP_MD_CTX_new())
{
    if (!ctx_ || !sha256Algorithm()) {
        std::abort();  // out of memory, or an OpenSSL without SHA-256: nothing sensible to do
    }
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

Sha256::Digest Sha256::digest(std::string_view text)
{
    Digest out{};
    unsigned int length = 0;
    if (EVP_DigestInit_ex(ctx_.get(), sha256Algorithm(), nullptr) != 1 ||
        EVP_DigestUpdate(ctx_.get(), text.data(), text.size()) != 1 ||
        EVP_DigestFinal_ex(ctx_.get(), out.data(), &length) != 1 || length != kSize) {
        std::abort();
    }
    return out;
}

std::string Sha256::hex(std::string_view text)
{
    const Digest out = digest(text);
    return hex::encode(out.data(), out.size());
}

}  // namespace moat
