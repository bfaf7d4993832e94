// SPDX-License-Identifier: Apache-2.0
#include "egress/tls/client_tls.h"

#include "egress/egress_policy.h"

#include <cstring>

namespace moat {

namespace {

constexpr std::size_t kShownNameLength = 255;

int guardIndex()
{
    static const int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    return index;
}

// The name as the hostile client sent it, made printable for the record.
std::string shownName(const char* name)
{
    std::string shown(name, ::strnlen(name, kShownNameLength));
    for (char& c : shown) {
        if (c < 0x21 || c > 0x7e) {
            c = '?';
        }
    }
    return shown;
}

int checkServerName(SSL* ssl, int* alert, void* /*unused*/)
{
    auto* guard = static_cast<ClientHandshakeGuard*>(SSL_get_ex_data(ssl, guardIndex()));
    if (!guard) {
        *alert = SSL_AD_INTERNAL_ERROR;
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
    if (!name || EgressPolicy::serverNameNames(name, guard->host)) {
        return SSL_TLSEXT_ERR_OK;
    }
    guard->refusal = "the TLS server name " + shownName(name) + " is not the tunnel's destination " + guard->host +
                     "; a tunnel reaches only the host it was opened to";
    *alert = SSL_AD_UNRECOGNIZED_NAME;
    return SSL_TLSEXT_ERR_ALERT_FATAL;
}

// http/1.1 when the client offers it; otherwise no ALPN at all, which every
// HTTP client reads as HTTP/1.1.
int selectHttp11(SSL* /*ssl*/, const unsigned char** out, unsigned char* outLength, const unsigned char* in,
                 unsigned int inLength, void* /*unused*/)
{
    static constexpr unsigned char kHttp11[] = {'h', 't', 't', 'p', '/', '1', '.', '1'};
    for (unsigned int at = 0; at < inLength;) {
        const unsigned int length = in[at];
        if (at + 1 + length > inLength) {
            break;
        }
        if (length == sizeof kHttp11 && std::memcmp(in + at + 1, kHttp11, length) == 0) {
            *out = in + at + 1;
            *outLength = static_cast<unsigned char>(length);
            return SSL_TLSEXT_ERR_OK;
        }
        at += 1 + length;
    }
    return SSL_TLSEXT_ERR_NOACK;
}

}  // namespace

ClientTls::ClientTls(std::shared_ptr<SessionAuthority> authority)
    : authority_(std::move(authority)), context_(boost::asio::ssl::context::tls_server)
{
}

Result<std::shared_ptr<ClientTls>> ClientTls::create(std::shared_ptr<SessionAuthority> authority)
{
    if (!authority) {
        return Error{"TLS interception needs the session's CA, and none was made", 0, {}};
    }
    std::shared_ptr<ClientTls> tls(new ClientTls(std::move(authority)));
    SSL_CTX* context = tls->context_.native_handle();
    if (guardIndex() < 0 || SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1) {
        return Error{"cannot set up TLS for the sandbox's clients: " + tls::takeOpenSslError("unknown OpenSSL error"),
                     0, {}};
    }
    SSL_CTX_set_tlsext_servername_callback(context, checkServerName);
    SSL_CTX_set_alpn_select_cb(context, selectHttp11, nullptr);
    // No session tickets: a resumed session would skip the SNI check.
    SSL_CTX_set_options(context, SSL_OP_NO_TICKET);
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
    return tls;
}

Result<void> ClientTls::prepare(SSL* ssl, ClientHandshakeGuard& guard)
{
    auto leaf = authority_->leafFor(guard.host);
    if (!leaf) {
        return leaf.error();
    }
    if (SSL_use_certificate(ssl, leaf.value()->certificate.get()) != 1 ||
        SSL_use_PrivateKey(ssl, leaf.value()->key.get()) != 1 || SSL_set_ex_data(ssl, guardIndex(), &guard) != 1) {
        return Error{"cannot present the certificate for " + guard.host + ": " +
                         tls::takeOpenSslError("unknown OpenSSL error"),
                     0, {}};
    }
    return {};
}

}  // namespace moat
