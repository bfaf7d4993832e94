// SPDX-License-Identifier: Apache-2.0
#include "audit/ed25519.h"

#include <openssl/evp.h>

#include <memory>

namespace moat::ed25519 {

namespace {

struct KeyDeleter {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct ContextDeleter {
    void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyDeleter>;
using Context = std::unique_ptr<EVP_MD_CTX, ContextDeleter>;

Key privateKey(const unsigned char* seed)
{
    return Key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, seed, kSeedSize));
}

}  // namespace

Result<PublicKey> publicKey(const unsigned char* seed)
{
    const Key key = privateKey(seed);
    PublicKey out{};
    size_t length = out.size();
    if (!key || EVP_PKEY_get_raw_public_key(key.get(), out.data(), &length) != 1 || length != out.size()) {
        return Error{"cannot derive the Ed25519 public key of the record key"};
    }
    return out;
}

Result<Signature> sign(const unsigned char* seed, std::string_view message)
{
    const Key key = privateKey(seed);
    const Context ctx(EVP_MD_CTX_new());
    Signature out{};
    size_t length = out.size();
    // Ed25519 hashes the message itself: no digest is named.
    if (!key || !ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
        EVP_DigestSign(ctx.get(), out.data(), &length, reinterpret_cast<const unsigned char*>(message.data()),
                       message.size()) != 1 ||
        length != out.size()) {
        return Error{"cannot sign with the record key (Ed25519)"};
    }
    return out;
}

bool verify(const PublicKey& key, std::string_view message, const Signature& signature)
{
    const Key publicKey(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, key.data(), key.size()));
    const Context ctx(EVP_MD_CTX_new());
    return publicKey && ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, publicKey.get()) == 1 &&
           EVP_DigestVerify(ctx.get(), signature.data(), signature.size(),
                            reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
}

}  // namespace moat::ed25519
