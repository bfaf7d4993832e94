// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <string>

namespace moat::tls {

// Owning handles for the OpenSSL objects the interception code makes: each
// is freed by its own OpenSSL function when the handle goes, on every path.
template <auto freeFunction>
struct OpenSslFree {
    template <typename T>
    void operator()(T* object) const
    {
        freeFunction(object);
    }
};

using EvpKey = std::unique_ptr<EVP_PKEY, OpenSslFree<EVP_PKEY_free>>;
using EvpKeyContext = std::unique_ptr<EVP_PKEY_CTX, OpenSslFree<EVP_PKEY_CTX_free>>;
using X509Handle = std::unique_ptr<X509, OpenSslFree<X509_free>>;
using X509NameHandle = std::unique_ptr<X509_NAME, OpenSslFree<X509_NAME_free>>;
using X509ExtensionHandle = std::unique_ptr<X509_EXTENSION, OpenSslFree<X509_EXTENSION_free>>;
using GeneralNames = std::unique_ptr<GENERAL_NAMES, OpenSslFree<GENERAL_NAMES_free>>;
using Asn1Integer = std::unique_ptr<ASN1_INTEGER, OpenSslFree<ASN1_INTEGER_free>>;
using BigNumber = std::unique_ptr<BIGNUM, OpenSslFree<BN_free>>;
using MemoryBio = std::unique_ptr<BIO, OpenSslFree<BIO_free_all>>;
using SslContext = std::unique_ptr<SSL_CTX, OpenSslFree<SSL_CTX_free>>;

// The reason of the oldest error on this thread's OpenSSL error queue (or
// `fallback` when the queue is empty), and the queue cleared: the next
// failure must not report this one's cause.
std::string takeOpenSslError(const std::string& fallback);

}  // namespace moat::tls
