// SPDX-License-Identifier: Apache-2.0
#include "egress/tls/upstream_tls.h"

#include "egress/tls/openssl_handles.h"

#include <boost/asio/ssl/error.hpp>

#include <openssl/err.h>

namespace moat {

namespace {

constexpr unsigned char kAlpnHttp11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

bool isIpLiteral(const std::string& host)
{
    return host.find(':') != std::string::npos ||
           (!host.empty() && host.find_first_not_of("0123456789.") == std::string::npos);
}

}  // namespace

std::string hostPortText(const std::string& host, std::uint16_t port)
{
    const bool bracket = host.find(':') != std::string::npos && host.front() != '[';
    return (bracket ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

UpstreamTls::UpstreamTls() : context_(boost::asio::ssl::context::tls_client) {}

Result<std::shared_ptr<UpstreamTls>> UpstreamTls::create(const std::string& extraCaFile)
{
    std::shared_ptr<UpstreamTls> tls(new UpstreamTls());
    SSL_CTX* context = tls->context_.native_handle();
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    if (SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1 ||
        SSL_CTX_set_alpn_protos(context, kAlpnHttp11, sizeof kAlpnHttp11) != 0) {
        return Error{"cannot set up TLS to upstreams: " + tls::takeOpenSslError("unknown OpenSSL error"), 0, {}};
    }
    // The host's trust store: what the user's own curl on this machine trusts.
    if (SSL_CTX_set_default_verify_paths(context) != 1) {
        return Error{"cannot load the host's trust store: " + tls::takeOpenSslError("unknown OpenSSL error"), 0,
                     "check that the ca-certificates package is installed"};
    }
    if (!extraCaFile.empty() && SSL_CTX_load_verify_locations(context, extraCaFile.c_str(), nullptr) != 1) {
        return Error{"cannot load the extra CA file " + extraCaFile + ": " +
                         tls::takeOpenSslError("no certificate in it"),
                     0, "give a readable PEM file of CA certificates"};
    }
    return tls;
}

Result<void> UpstreamTls::prepare(SSL* ssl, const std::string& host) const
{
    std::string bare = host;
    if (bare.size() > 2 && bare.front() == '[' && bare.back() == ']') {
        bare = bare.substr(1, bare.size() - 2);
    }
    bool ok = true;
    if (isIpLiteral(bare)) {
        // RFC 6066: no SNI for an address; the certificate must name the
        // address itself (SAN iPAddress).
        ok = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), bare.c_str()) == 1;
    } else {
        SSL_set_hostflags(ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        ok = SSL_set_tlsext_host_name(ssl, bare.c_str()) == 1 && SSL_set1_host(ssl, bare.c_str()) == 1;
    }
    if (!ok) {
        return Error{"cannot set up TLS to " + host + ": " + tls::takeOpenSslError("unknown OpenSSL error"), 0, {}};
    }
    return {};
}

std::string UpstreamTls::failureReason(SSL* ssl, const std::string& host, std::uint16_t port,
                                       const boost::system::error_code& ec)
{
    const std::string where = hostPortText(host, port);
    const long verified = SSL_get_verify_result(ssl);
    if (verified != X509_V_OK) {
        return "upstream certificate for " + where +
               " did not verify: " + X509_verify_cert_error_string(verified);
    }
    std::string detail = ec.message();
    if (ec.category() == boost::asio::error::get_ssl_category()) {
        const char* reason = ERR_reason_error_string(static_cast<unsigned long>(ec.value()));
        if (reason) {
            detail = reason;
        }
    }
    ERR_clear_error();
    return "the TLS handshake with " + where + " failed: " + detail;
}

}  // namespace moat
