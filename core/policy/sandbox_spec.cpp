// SPDX-License-Identifier: Apache-2.0
#include "policy/sandbox_spec.h"

namespace moat {

std::string ImageRef::toString() const
{
    return kind == Kind::Host ? std::string("host") : path;
}

std::string toString(NetworkMode mode)
{
    switch (mode) {
    case NetworkMode::Proxy: return "proxy";
    case NetworkMode::None: return "none";
    case NetworkMode::Open: return "open";
    }
    return "none";
}

std::string toString(DegradableLayer layer)
{
    switch (layer) {
    case DegradableLayer::Landlock: return "landlock";
    case DegradableLayer::Seccomp: return "seccomp";
    case DegradableLayer::UserNamespace: return "userns";
    }
    return "unknown";
}

std::optional<NetworkMode> networkModeFromString(std::string_view text)
{
    for (NetworkMode mode : {NetworkMode::Proxy, NetworkMode::None, NetworkMode::Open}) {
        if (text == toString(mode)) {
            return mode;
        }
    }
    return std::nullopt;
}

std::optional<DegradableLayer> degradableLayerFromString(std::string_view text)
{
    for (DegradableLayer layer : {DegradableLayer::Landlock, DegradableLayer::Seccomp, DegradableLayer::UserNamespace}) {
        if (text == toString(layer)) {
            return layer;
        }
    }
    return std::nullopt;
}

std::vector<std::string> SandboxSpec::flagBadges() const
{
    std::vector<std::string> badges;
    if (yolo) {
        badges.emplace_back("yolo");
    }
    if (sudo) {
        badges.emplace_back("sudo");
    }
    if (docker) {
        badges.emplace_back("docker");
    }
    badges.push_back("net:" + toString(network));
    for (const auto& host : allowHosts) {
        badges.push_back("allow-host:" + host);
    }
    if (localTcp) {
        badges.emplace_back("local-tcp");
    }
    for (const auto& rule : httpRules) {
        badges.push_back("rule:" + rule);
    }
    for (const auto& secret : secrets) {
        badges.push_back("secret:" + secret.name + (secret.envVar == secret.name ? "" : "=" + secret.envVar));
    }
    if (!upstreamCaFile.empty()) {
        badges.push_back("upstream-ca:" + upstreamCaFile);
    }
    for (const auto& mount : mounts) {
        badges.push_back((mount.readOnly ? "ro:" : "rw:") + mount.path);
    }
    for (const auto& variable : explicitEnv) {
        badges.push_back("env:" + variable);
    }
    for (DegradableLayer layer : allowDegraded) {
        badges.push_back("degraded:" + toString(layer));
    }
    badges.push_back("ttl:" + ttl.toString());
    return badges;
}

}  // namespace moat
