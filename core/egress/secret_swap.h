// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "egress/host_pattern.h"
#include "egress/locked_secret.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace moat {

// One secret a session may use: the sandbox holds `placeholder` (in the
// environment variable moat run --secret NAME[=ENVVAR] names); the proxy
// puts `value` in its place only in `headers` of requests to `hosts`.
struct SwapBinding {
    std::string name;         // as in `moat secret set NAME`
    std::string placeholder;  // makeSecretPlaceholder(name), new per session
    LockedSecret value;
    std::vector<HostPattern> hosts;
    std::vector<std::string> headers;  // field names, any case; empty: Authorization
};

// A binding for this session: hosts parsed (HostPattern syntax, as `moat
// secret set --host` stored them), a new placeholder made, headers as given
// (none: Authorization). For whoever builds the session's SecretSwap from
// what the keychain gave (keychain/secret_book.h, StoredSecret).
Result<SwapBinding> makeSwapBinding(const std::string& name, LockedSecret value,
                                    const std::vector<std::string>& hosts, std::vector<std::string> headers);

// One header field of a request, as the relay parsed it (name as sent).
struct HeaderField {
    std::string name;
    std::string value;
};

// The request the relay is about to send upstream, as far as the swap needs
// to see it.
struct SwapRequest {
    std::string_view host;  // the destination (CONNECT/SNI name or literal), any case
    uint16_t port = 0;
    bool encrypted = false;   // the upstream leg is TLS: a value never travels in the clear
    std::string_view target;  // the request target as received ("/path?query" or absolute)
    std::vector<HeaderField>* headers = nullptr;  // rewritten in place when the verdict forwards
    std::string_view body;    // what the relay holds of the body (a bounded prefix), or empty
};

// What the swap decided. Names only: no field ever holds a value.
struct SwapVerdict {
    struct Use {
        std::string secret;
        std::vector<std::string> headers;  // the header names it went into, as sent
    };

    bool refused = false;
    // Forwarded: each secret put into the request, once, in binding order
    // (one secret.use event each).
    std::vector<Use> used;
    // Refused: whose placeholder was found where it may not go (one
    // secret.leak_attempt event), where ("request target", "body",
    // "header X-Debug", "header name"), and why, in one sentence for the
    // record and the agent's 403.
    std::string secret;
    std::string where;
    std::string reason;
};

// Swaps placeholders for secrets in the requests an intercepting relay sees
// (one SecretSwap per session, in the supervisor; the TLS relay calls apply()
// for each request it forwards). Pure: no I/O, no logging.
//
// The rule, from docs/secrets.md: a placeholder is replaced by its value
// only in a header the secret is bound to, of a request to a host it is
// bound to, over TLS; inside "Authorization: Basic" credentials too (decoded,
// replaced in user or password, encoded again). A placeholder found anywhere
// else (another header or a header's name, any header of a request to
// another host, the request target even percent-encoded, the body given,
// Basic credentials sent elsewhere, any request in the clear) makes the
// whole request refused, with nothing swapped: the agent may be trying to
// make moat deliver the secret somewhere of its choosing. Placeholders are
// looked for there without regard to case.
//
// Nothing apply() returns or throws contains a value; after a forward, the
// header values that received one are the only copies outside LockedSecret
// (the caller sends them, then may wipe them with LockedSecret::wipe()).
class SecretSwap {
public:
    // Refuses bindings that could not be applied safely: a bad name or
    // header, an empty host list, a value that is not a header value, a
    // placeholder that is not one of this session's shape or is repeated.
    static Result<SecretSwap> create(std::vector<SwapBinding> bindings);

    SecretSwap(SecretSwap&&) noexcept = default;
    SecretSwap& operator=(SecretSwap&&) noexcept = default;
    SecretSwap(const SecretSwap&) = delete;
    SecretSwap& operator=(const SecretSwap&) = delete;

    SwapVerdict apply(const SwapRequest& request) const;

    // Whether a destination is bound to any secret: its TLS must be
    // intercepted for the swap to happen. A placeholder sent inside a blind
    // tunnel to another allowed host is never seen, so never refused; it is
    // only a placeholder there (docs/secrets.md).
    bool bindsHost(std::string_view host, uint16_t port) const;

    const std::vector<SwapBinding>& bindings() const { return bindings_; }

private:
    explicit SecretSwap(std::vector<SwapBinding> bindings) : bindings_(std::move(bindings)) {}

    std::vector<SwapBinding> bindings_;
};

}  // namespace moat
