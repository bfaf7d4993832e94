// SPDX-License-Identifier: Apache-2.0
#include "session/session_interception.h"

#include "egress/secret_swap.h"
#include "egress/tls/session_authority.h"
#include "egress/tls/upstream_tls.h"
#include "policy/http_rules.h"

#include <algorithm>

namespace moat {

Result<std::shared_ptr<SessionInterception>> SessionInterception::prepare(const SandboxSpec& spec,
                                                                          std::vector<HandedOverSecret> secrets)
{
    if (!spec.intercepts()) {
        return std::shared_ptr<SessionInterception>();
    }
    auto interception = std::make_shared<SessionInterception>();
    auto rules = HttpRuleSet::parse(spec.httpRules);
    if (!rules) {
        return rules.error();
    }
    interception->rules_ = std::make_shared<const HttpRuleSet>(std::move(rules.value()));

    // The hosts whose TLS the proxy terminates: those with rules, and the
    // secrets' hosts. The session CA is constrained to them.
    std::vector<HostPattern> intercepted = interception->rules_->hostsWithRules();
    // Each --secret of the spec must have been handed over, and nothing else.
    std::vector<SwapBinding> bindings;
    nlohmann::json secretSummary = nlohmann::json::array();
    for (const auto& wanted : spec.secrets) {
        auto found = std::find_if(secrets.begin(), secrets.end(),
                                  [&wanted](const HandedOverSecret& secret) { return secret.name == wanted.name; });
        if (found == secrets.end()) {
            return Error{"the value of secret " + wanted.name + " was not handed to moat-supervisor", 0,
                         "Start the session with moat run (or moatd), which fetches it from the keychain"};
        }
        auto binding = makeSwapBinding(found->name, std::move(found->value), found->hosts, found->headers);
        if (!binding) {
            return binding.error();
        }
        interception->placeholderEnvironment_.push_back(wanted.envVar + "=" + binding->placeholder);
        secretSummary.push_back({{"name", wanted.name}, {"env", wanted.envVar}, {"hosts", found->hosts},
                                 {"headers", binding->headers}});
        intercepted.insert(intercepted.end(), binding->hosts.begin(), binding->hosts.end());
        bindings.push_back(std::move(binding.value()));
    }
    if (!bindings.empty()) {
        auto swap = SecretSwap::create(std::move(bindings));
        if (!swap) {
            return swap.error();
        }
        interception->secrets_ = std::make_shared<const SecretSwap>(std::move(swap.value()));
    }
    auto authority = SessionAuthority::create(SessionAuthority::kDefaultCacheCapacity, intercepted);
    if (!authority) {
        return authority.error();
    }
    interception->authority_ = std::move(authority.value());
    auto upstream = UpstreamTls::create(spec.upstreamCaFile);
    if (!upstream) {
        return upstream.error();
    }
    interception->upstreamTls_ = std::move(upstream.value());
    interception->summary_ = {{"rules", interception->rules_->texts()},
                              {"secrets", secretSummary},
                              {"ask_timeout_seconds", spec.askTimeout.seconds().count()}};
    if (!spec.upstreamCaFile.empty()) {
        interception->summary_["upstream_ca"] = spec.upstreamCaFile;
    }
    return interception;
}

const std::string& SessionInterception::caPem() const
{
    return authority_->certificatePem();
}

nlohmann::json SessionInterception::summary() const
{
    return summary_;
}

TlsInterception SessionInterception::proxyInterception(HttpAskDesk* desk, SessionRequestFilter::Record record) const
{
    TlsInterception interception;
    interception.authority = authority_;
    interception.upstreamTls = upstreamTls_;
    interception.intercept = [rules = rules_, secrets = secrets_, desk, record = std::move(record)](
                                 const std::string& host, std::uint16_t port) -> std::shared_ptr<HttpExchangeFilter> {
        const bool ruled = rules && rules->hasRulesFor(host, port);
        const bool bound = secrets && secrets->bindsHost(host, port);
        if (!ruled && !bound) {
            return nullptr;  // a blind tunnel, as without interception
        }
        return std::make_shared<SessionRequestFilter>(rules, secrets, desk, record);
    };
    return interception;
}

}  // namespace moat
