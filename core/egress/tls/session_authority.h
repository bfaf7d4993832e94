// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "egress/host_pattern.h"
#include "egress/tls/openssl_handles.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace moat {

// A certificate the proxy presents to the sandbox for one server name,
// signed by the session's CA. Immutable once minted; shared by every
// connection to that name.
struct LeafCertificate {
    tls::X509Handle certificate;
    // The session's one leaf key: every leaf of a session certifies the same
    // P-256 key (minting then costs one signature, no key generation). It
    // lives in this process only, like the CA key.
    std::shared_ptr<EVP_PKEY> key;
    std::chrono::system_clock::time_point notAfter;
};

// The certificate authority of one session, made when the supervisor starts
// the session's proxy. The sandbox trusts its certificate (certificatePem(),
// which the session puts in the sandbox's trust store); its private key is
// made here, with OpenSSL, and exists only in this object: never written to
// a file, a log, an event or a pipe, and freed (OpenSSL clears it) with the
// object. Nothing outside the supervisor can mint a certificate the sandbox
// accepts, and nothing outside the sandbox trusts this CA.
//
// Leaves are minted per server name on first use and cached: the same name
// gets the same certificate for as long as it is valid (24 h, renewed an
// hour before it ends). The cache holds at most cacheCapacity names, the
// oldest minted dropped first, so that an agent cycling through the names
// of a wildcard rule cannot grow the supervisor without bound.
// Thread-safe.
class SessionAuthority {
public:
    static constexpr std::size_t kDefaultCacheCapacity = 4096;

    // permittedHosts: the hosts the session intercepts. When given, the CA
    // certificate carries a critical name constraint permitting only them
    // (an exact name and its subdomains, a wildcard's subdomains, an
    // address): a client that checks constraints (OpenSSL, GnuTLS, NSS, Go)
    // rejects a leaf for any other name, should the key ever be misused.
    static Result<std::shared_ptr<SessionAuthority>> create(std::size_t cacheCapacity = kDefaultCacheCapacity,
                                                            const std::vector<HostPattern>& permittedHosts = {});
    // The nameConstraints value create() writes for these hosts, in
    // OpenSSL's configuration syntax ("critical,permitted;DNS:...").
    static std::string nameConstraintsFor(const std::vector<HostPattern>& permittedHosts);
    ~SessionAuthority();
    SessionAuthority(const SessionAuthority&) = delete;
    SessionAuthority& operator=(const SessionAuthority&) = delete;

    // The CA certificate, PEM-encoded: the one thing of the authority that
    // may leave the supervisor.
    const std::string& certificatePem() const { return certificatePem_; }
    X509* certificate() const { return certificate_.get(); }

    // The leaf for host: a normalised DNS name (SAN dNSName) or an IP literal
    // (SAN iPAddress; an IPv6 literal with or without brackets).
    Result<std::shared_ptr<const LeafCertificate>> leafFor(const std::string& host);

    // How many leaves were minted (not served from the cache) so far.
    std::uint64_t mintedCount() const;

private:
    SessionAuthority() = default;
    Result<std::shared_ptr<const LeafCertificate>> mint(const std::string& host) const;

    tls::EvpKey caKey_;
    tls::X509Handle certificate_;
    std::string certificatePem_;
    std::shared_ptr<EVP_PKEY> leafKey_;
    std::size_t cacheCapacity_ = kDefaultCacheCapacity;

    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<const LeafCertificate>, std::less<>> leaves_;
    std::deque<std::string> mintOrder_;
    std::uint64_t minted_ = 0;
};

}  // namespace moat
