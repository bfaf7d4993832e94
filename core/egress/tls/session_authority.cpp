// SPDX-License-Identifier: Apache-2.0
#include "egress/tls/session_authority.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>

namespace moat {

namespace {

using std::chrono::hours;

// A leaf is valid from an hour ago (a client clock a little behind the
// host's still accepts it) for a day, and replaced an hour before it ends.
constexpr hours kBackdate{1};
constexpr hours kLeafLifetime{24};
constexpr hours kRenewBefore{1};
// The CA outlives any session; it is useless without its key, which dies
// with the supervisor.
constexpr hours kAuthorityLifetime{24 * 365};

Error opensslError(const std::string& what)
{
    return Error{what + ": " + tls::takeOpenSslError("unknown OpenSSL error"), 0,
                 "this is a bug or a broken OpenSSL installation; report it with the OpenSSL version"};
}

tls::EvpKey generateP256Key()
{
    return tls::EvpKey(EVP_EC_gen("P-256"));
}

// 127 random bits, positive and never zero (RFC 5280 4.1.2.2): a
// certificate's serial cannot be guessed, so no two leaves collide.
bool setRandomSerial(X509* certificate)
{
    std::array<unsigned char, 16> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
        return false;
    }
    bytes[0] &= 0x7f;
    bytes[15] |= 0x01;
    tls::BigNumber number(BN_bin2bn(bytes.data(), static_cast<int>(bytes.size()), nullptr));
    return number && BN_to_ASN1_INTEGER(number.get(), X509_get_serialNumber(certificate)) != nullptr;
}

bool addExtension(X509* certificate, X509V3_CTX& context, int nid, const char* value)
{
    tls::X509ExtensionHandle extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
    return extension && X509_add_ext(certificate, extension.get(), -1) == 1;
}

// The SAN of a leaf: an iPAddress for an IP literal, a dNSName otherwise.
bool isAddressLiteral(const std::string& host)
{
    std::string literal = host;
    if (literal.size() > 2 && literal.front() == '[' && literal.back() == ']') {
        literal = literal.substr(1, literal.size() - 2);
    }
    ASN1_OCTET_STRING* address = a2i_IPADDRESS(literal.c_str());
    ASN1_OCTET_STRING_free(address);
    return address != nullptr;
}

bool addSubjectAltName(X509* certificate, const std::string& host)
{
    std::string literal = host;
    if (literal.size() > 2 && literal.front() == '[' && literal.back() == ']') {
        literal = literal.substr(1, literal.size() - 2);
    }
    tls::GeneralNames names(GENERAL_NAMES_new());
    GENERAL_NAME* name = GENERAL_NAME_new();
    if (!names || !name) {
        GENERAL_NAME_free(name);
        return false;
    }
    if (ASN1_OCTET_STRING* address = a2i_IPADDRESS(literal.c_str())) {
        GENERAL_NAME_set0_value(name, GEN_IPADD, address);
    } else {
        ERR_clear_error();
        ASN1_IA5STRING* dns = ASN1_IA5STRING_new();
        if (!dns || ASN1_STRING_set(dns, host.data(), static_cast<int>(host.size())) != 1) {
            ASN1_IA5STRING_free(dns);
            GENERAL_NAME_free(name);
            return false;
        }
        GENERAL_NAME_set0_value(name, GEN_DNS, dns);
    }
    if (sk_GENERAL_NAME_push(names.get(), name) == 0) {
        GENERAL_NAME_free(name);
        return false;
    }
    return X509_add1_ext_i2d(certificate, NID_subject_alt_name, names.get(), 0, X509V3_ADD_DEFAULT) == 1;
}

bool setValidity(X509* certificate, hours lifetime)
{
    const long from = -std::chrono::duration_cast<std::chrono::seconds>(kBackdate).count();
    const long to = std::chrono::duration_cast<std::chrono::seconds>(lifetime).count();
    return X509_gmtime_adj(X509_getm_notBefore(certificate), from) != nullptr &&
           X509_gmtime_adj(X509_getm_notAfter(certificate), to) != nullptr;
}

bool addNameEntry(X509_NAME* name, const char* field, const std::string& value)
{
    return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(value.data()),
                                      static_cast<int>(value.size()), -1, 0) == 1;
}

Result<std::string> toPem(X509* certificate)
{
    tls::MemoryBio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), certificate) != 1) {
        return opensslError("cannot encode the session CA certificate");
    }
    char* data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(length));
}

}  // namespace

std::string SessionAuthority::nameConstraintsFor(const std::vector<HostPattern>& permittedHosts)
{
    std::set<std::string> subtrees;
    for (const auto& host : permittedHosts) {
        if (host.isIpLiteral()) {
            const IpAddress& address = host.address();
            subtrees.insert("IP:" + address.toString() +
                            (address.isV4() ? "/255.255.255.255" : "/ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
        } else {
            // DNS:name permits the name and its subdomains; DNS:.name only
            // the subdomains, as "*.name" means.
            subtrees.insert("DNS:" + std::string(host.isWildcard() ? "." : "") + host.name());
        }
    }
    // A permitted subtree constrains only its own name form: without one
    // the form would be open. No address intercepted: every address is
    // excluded. No name: the one permitted is the reserved "invalid".
    const bool anyAddress = std::any_of(permittedHosts.begin(), permittedHosts.end(),
                                        [](const HostPattern& host) { return host.isIpLiteral(); });
    const bool anyName = std::any_of(permittedHosts.begin(), permittedHosts.end(),
                                     [](const HostPattern& host) { return !host.isIpLiteral(); });
    if (!anyName) {
        subtrees.insert("DNS:invalid");
    }
    std::string value = "critical";
    for (const auto& subtree : subtrees) {
        value += ",permitted;" + subtree;
    }
    if (!anyAddress) {
        value += ",excluded;IP:0.0.0.0/0.0.0.0,excluded;IP:::/::";
    }
    return value;
}

Result<std::shared_ptr<SessionAuthority>> SessionAuthority::create(std::size_t cacheCapacity,
                                                                   const std::vector<HostPattern>& permittedHosts)
{
    std::shared_ptr<SessionAuthority> authority(new SessionAuthority());
    authority->cacheCapacity_ = cacheCapacity == 0 ? 1 : cacheCapacity;
    authority->caKey_ = generateP256Key();
    tls::EvpKey leafKey = generateP256Key();
    if (!authority->caKey_ || !leafKey) {
        return opensslError("cannot generate the session's P-256 keys");
    }
    authority->leafKey_ = std::shared_ptr<EVP_PKEY>(leafKey.release(), EVP_PKEY_free);

    tls::X509Handle certificate(X509_new());
    if (!certificate) {
        return opensslError("cannot make the session CA certificate");
    }
    X509* ca = certificate.get();
    std::array<unsigned char, 4> tag{};
    (void)RAND_bytes(tag.data(), static_cast<int>(tag.size()));
    char tagText[9];
    std::snprintf(tagText, sizeof tagText, "%02x%02x%02x%02x", tag[0], tag[1], tag[2], tag[3]);
    X509_NAME* subject = X509_get_subject_name(ca);
    bool made = X509_set_version(ca, X509_VERSION_3) == 1 && setRandomSerial(ca) &&
                setValidity(ca, kAuthorityLifetime) && addNameEntry(subject, "O", "moat") &&
                addNameEntry(subject, "CN", std::string("moat session CA ") + tagText) &&
                X509_set_issuer_name(ca, subject) == 1 && X509_set_pubkey(ca, authority->caKey_.get()) == 1;
    X509V3_CTX context;
    X509V3_set_ctx(&context, ca, ca, nullptr, nullptr, 0);
    // pathlen:0: the CA signs leaves only, never another CA.
    made = made && addExtension(ca, context, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") &&
           addExtension(ca, context, NID_key_usage, "critical,keyCertSign,cRLSign") &&
           addExtension(ca, context, NID_subject_key_identifier, "hash") &&
           (permittedHosts.empty() ||
            addExtension(ca, context, NID_name_constraints, nameConstraintsFor(permittedHosts).c_str())) &&
           X509_sign(ca, authority->caKey_.get(), EVP_sha256()) > 0;
    if (!made) {
        return opensslError("cannot make the session CA certificate");
    }
    auto pem = toPem(ca);
    if (!pem) {
        return pem.error();
    }
    authority->certificate_ = std::move(certificate);
    authority->certificatePem_ = std::move(pem.value());
    return authority;
}

SessionAuthority::~SessionAuthority() = default;

std::uint64_t SessionAuthority::mintedCount() const
{
    std::lock_guard lock(mutex_);
    return minted_;
}

Result<std::shared_ptr<const LeafCertificate>> SessionAuthority::leafFor(const std::string& host)
{
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::system_clock::now();
    if (const auto found = leaves_.find(host); found != leaves_.end() && found->second->notAfter - kRenewBefore > now) {
        return found->second;
    }
    auto leaf = mint(host);
    if (!leaf) {
        return leaf.error();
    }
    ++minted_;
    if (leaves_.insert_or_assign(host, leaf.value()).second) {
        mintOrder_.push_back(host);
    }
    while (leaves_.size() > cacheCapacity_ && !mintOrder_.empty()) {
        leaves_.erase(mintOrder_.front());
        mintOrder_.pop_front();
    }
    return leaf;
}

Result<std::shared_ptr<const LeafCertificate>> SessionAuthority::mint(const std::string& host) const
{
    if (host.empty()) {
        return Error{"cannot mint a certificate for an empty server name", 0, {}};
    }
    tls::X509Handle certificate(X509_new());
    if (!certificate) {
        return opensslError("cannot mint a certificate for " + host);
    }
    X509* leaf = certificate.get();
    X509_NAME* subject = X509_get_subject_name(leaf);
    // The SAN is what clients check. A common name holds at most 64
    // characters, so a longer name goes without one; so does an address,
    // which a client checking the CA's name constraints would otherwise
    // take for a DNS name (the CN of a leaf without DNS names is checked
    // as one) and refuse.
    const bool commonName = host.size() <= 64 && !isAddressLiteral(host);
    bool made = X509_set_version(leaf, X509_VERSION_3) == 1 && setRandomSerial(leaf) &&
                setValidity(leaf, kLeafLifetime) && addNameEntry(subject, "O", "moat interception") &&
                (!commonName || addNameEntry(subject, "CN", host)) &&
                X509_set_issuer_name(leaf, X509_get_subject_name(certificate_.get())) == 1 &&
                X509_set_pubkey(leaf, leafKey_.get()) == 1;
    X509V3_CTX context;
    X509V3_set_ctx(&context, certificate_.get(), leaf, nullptr, nullptr, 0);
    made = made && addExtension(leaf, context, NID_basic_constraints, "critical,CA:FALSE") &&
           addExtension(leaf, context, NID_key_usage, "critical,digitalSignature") &&
           addExtension(leaf, context, NID_ext_key_usage, "serverAuth") &&
           addExtension(leaf, context, NID_authority_key_identifier, "keyid:always") &&
           addSubjectAltName(leaf, host) && X509_sign(leaf, caKey_.get(), EVP_sha256()) > 0;
    if (!made) {
        return opensslError("cannot mint a certificate for " + host);
    }
    auto result = std::make_shared<LeafCertificate>();
    result->certificate = std::move(certificate);
    result->key = leafKey_;
    result->notAfter = std::chrono::system_clock::now() + kLeafLifetime;
    return std::shared_ptr<const LeafCertificate>(std::move(result));
}

}  // namespace moat
