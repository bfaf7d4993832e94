// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"
#include "egress/tls/tls_interception.h"
#include "policy/sandbox_spec.h"
#include "session/http_ask_desk.h"
#include "session/secret_handoff.h"
#include "session/session_filter.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace moat {

class HttpRuleSet;
class SecretSwap;

// Everything a session needs to see inside some hosts' TLS, made by
// moat-supervisor before the sandbox exists (docs/egress.md, rules.md,
// secrets.md): the session CA the sandbox will trust, the TLS to upstreams
// (the host's trust store, plus --upstream-ca), the parsed --rule set, and
// the secret swap with a fresh placeholder per secret. Null when the spec
// intercepts nothing: the proxy then only ever tunnels blind.
class SessionInterception {
public:
    static Result<std::shared_ptr<SessionInterception>> prepare(const SandboxSpec& spec,
                                                                std::vector<HandedOverSecret> secrets);

    // What the sandbox trusts (its certificate only; the key never leaves).
    const std::string& caPem() const;
    // "ENVVAR=placeholder" for each --secret: the only form in which a
    // secret enters the sandbox.
    const std::vector<std::string>& placeholderEnvironment() const { return placeholderEnvironment_; }
    // The proxy's configuration: a host is intercepted when a rule names it
    // or a secret is bound to it; its requests go through a
    // SessionRequestFilter that asks through desk (null: an ask is a deny).
    TlsInterception proxyInterception(HttpAskDesk* desk, SessionRequestFilter::Record record) const;
    // For session.start: the rules, and each secret's name, variable and
    // hosts (never a value or a placeholder).
    nlohmann::json summary() const;

private:
    std::shared_ptr<SessionAuthority> authority_;
    std::shared_ptr<UpstreamTls> upstreamTls_;
    std::shared_ptr<const HttpRuleSet> rules_;
    std::shared_ptr<const SecretSwap> secrets_;
    std::vector<std::string> placeholderEnvironment_;
    nlohmann::json summary_;
};

}  // namespace moat
