// SPDX-License-Identifier: Apache-2.0
#include "policy/interception_flags.h"

#include "policy/http_rules.h"
#include "policy/proxy_environment.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace moat {

namespace {

Error flagError(const std::string& flag, const std::string& what, const std::string& hint)
{
    return Error{flag + ": " + what, 0, hint};
}

bool isIdentifier(const std::string& name)
{
    if (name.empty() || name.size() > 64 || std::isdigit(static_cast<unsigned char>(name.front()))) {
        return false;
    }
    for (char c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
            return false;
        }
    }
    return true;
}

// Variables moat sets itself when it intercepts (runtime/session_trust.h).
bool isTrustVariable(const std::string& name)
{
    static const std::set<std::string> names = {"SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
                                                "GIT_SSL_CAINFO", "NODE_EXTRA_CA_CERTS"};
    return names.contains(name);
}

Status addSecrets(SandboxSpec& spec, const std::vector<std::string>& values)
{
    std::set<std::string> variables;
    for (const auto& value : values) {
        const auto eq = value.find('=');
        SecretRequest secret{value.substr(0, eq), eq == std::string::npos ? value.substr(0, eq) : value.substr(eq + 1)};
        if (!isIdentifier(secret.name)) {
            return flagError("--secret", "'" + secret.name + "' is not a secret name",
                             "Use the name given to `moat secret set` (letters, digits and _), as NAME or NAME=ENVVAR");
        }
        if (!isIdentifier(secret.envVar)) {
            return flagError("--secret", "'" + secret.envVar + "' is not a variable name", "Use NAME=ENVVAR");
        }
        if (secret.envVar.rfind("MOAT_", 0) == 0 || isProxyVariable(secret.envVar) || isTrustVariable(secret.envVar)) {
            return flagError("--secret", secret.envVar + " is set by moat itself", "Pick another variable: NAME=ENVVAR");
        }
        if (spec.environment.contains(secret.envVar) && std::find(spec.explicitEnv.begin(), spec.explicitEnv.end(),
                                                                  secret.envVar) != spec.explicitEnv.end()) {
            return flagError("--secret", secret.envVar + " is also given with --env", "Give it once");
        }
        if (!variables.insert(secret.envVar).second) {
            return flagError("--secret", secret.envVar + " is named twice", "Give each secret its own variable");
        }
        // The placeholder replaces whatever the safe list passed under this name.
        spec.environment.erase(secret.envVar);
        spec.secrets.push_back(std::move(secret));
    }
    return {};
}

}  // namespace

Result<Duration> parseAskTimeout(std::string_view text)
{
    auto timeout = Duration::parse(text);
    if (!timeout) {
        return Error{"--ask-timeout: " + timeout.error().what, 0, timeout.error().hint};
    }
    if (timeout->seconds() > std::chrono::hours(1)) {
        return Error{"--ask-timeout: " + std::string(text) + " is longer than an hour", 0,
                     "Give at most 1h; an unanswered request is refused when it runs out"};
    }
    return timeout;
}

Status applyInterceptionFlags(SandboxSpec& spec, const RunRequest& request, const std::string& upstreamCaPath)
{
    const bool any = !request.rules.empty() || !request.secrets.empty() || !request.upstreamCa.empty();
    if (any && spec.network != NetworkMode::Proxy) {
        const char* flag = !request.rules.empty() ? "--rule" : !request.secrets.empty() ? "--secret" : "--upstream-ca";
        return flagError(flag,
                         std::string("needs --net proxy (the default): moat's proxy is what ") +
                             (request.secrets.empty() ? "enforces rules" : "swaps secrets in"),
                         spec.yolo ? "Drop --yolo, which opens the network to everything"
                                   : "Drop --net " + toString(spec.network));
    }
    // Parsed here only to refuse a bad rule before anything starts; the
    // supervisor parses the same texts again to enforce them.
    if (auto rules = HttpRuleSet::parse(request.rules); !rules) {
        return flagError("--rule", rules.error().what,
                         rules.error().hint.empty()
                             ? "Write 'METHOD HOST PATH ACTION' or 'push HOST REPO REF ACTION' (docs/rules.md)"
                             : rules.error().hint);
    }
    spec.httpRules = request.rules;
    if (!request.askTimeout.empty()) {
        auto timeout = parseAskTimeout(request.askTimeout);
        if (!timeout) {
            return timeout.error();
        }
        spec.askTimeout = timeout.value();
    }
    if (auto secrets = addSecrets(spec, request.secrets); !secrets) {
        return secrets;
    }
    if (!request.upstreamCa.empty()) {
        struct stat info {};
        if (::stat(upstreamCaPath.c_str(), &info) != 0 || !S_ISREG(info.st_mode) ||
            ::access(upstreamCaPath.c_str(), R_OK) != 0) {
            return flagError("--upstream-ca", "'" + upstreamCaPath + "' is not a readable file",
                             "Give a PEM file of CA certificates to trust for upstream servers");
        }
        spec.upstreamCaFile = upstreamCaPath;
    }
    return {};
}

}  // namespace moat
