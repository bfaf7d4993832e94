// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "policy/duration.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace moat {

enum class NetworkMode { Proxy, None, Open };
enum class DegradableLayer { Landlock, Seccomp, UserNamespace };

struct ImageRef {
    enum class Kind { Host, RootfsDir };
    Kind kind = Kind::Host;
    std::string path;  // canonical rootfs directory when kind == RootfsDir

    std::string toString() const;
};

// A keychain secret the sandbox gets a placeholder for (--secret NAME=ENVVAR).
struct SecretRequest {
    std::string name;
    std::string envVar;

    friend bool operator==(const SecretRequest&, const SecretRequest&) = default;
};

struct ExtraMount {
    std::string path;  // canonical host path, mounted at the same path inside
    bool readOnly = true;

    friend bool operator==(const ExtraMount&, const ExtraMount&) = default;
};

// Everything that defines a sandbox before it starts. Flags are fixed here:
// nothing inside the sandbox can change a SandboxSpec. Copyable, serialisable
// (spec_json.h) and free of host-local handles: paths are canonical strings.
struct SandboxSpec {
    std::string sessionId;
    std::string name;
    std::string profile = "default";

    ImageRef image;
    std::string workspace;
    std::vector<ExtraMount> mounts;

    // Final environment handed to the command (safe list + --env), before the
    // session-specific variables (HOME, USER, MOAT_SESSION...) are added.
    std::map<std::string, std::string> environment;
    // Names the user passed on purpose with --env (recorded as flags).
    std::vector<std::string> explicitEnv;

    bool sudo = false;
    bool docker = false;
    bool yolo = false;
    bool localTcp = false;
    NetworkMode network = NetworkMode::Proxy;
    // --allow-host values exactly as the user wrote them, in order; each one
    // parses as a HostPattern (egress/host_pattern.h). Only with
    // NetworkMode::Proxy: the proxy is what enforces them.
    std::vector<std::string> allowHosts;
    // HTTP and push rules exactly as written, in order (docs/rules.md), and
    // the secrets whose placeholders the proxy swaps (docs/secrets.md). Either
    // makes the proxy see inside the TLS of the hosts they name.
    std::vector<std::string> httpRules;
    std::vector<SecretRequest> secrets;
    // An extra CA file trusted for upstream TLS besides the host's store
    // (canonical path; tests and private registries), empty for none.
    std::string upstreamCaFile;
    // How long an `ask` rule holds a request for a person's answer before
    // the request is refused.
    Duration askTimeout = Duration::fromSeconds(std::chrono::seconds(60));
    Duration ttl = Duration::fromSeconds(std::chrono::hours(8));
    std::set<DegradableLayer> allowDegraded;

    std::vector<std::string> command;

    // A successor sandbox (an approved escalation request): the session it
    // follows and the request that widened it. Empty for a first session.
    std::string parentSessionId;
    std::string escalationRequestId;

    // Whether the proxy terminates TLS for some host (rules or secrets).
    bool intercepts() const { return !httpRules.empty() || !secrets.empty(); }

    // Flags as badges ("sudo", "net:none", "yolo", ...) for records and ps.
    std::vector<std::string> flagBadges() const;
};

std::string toString(NetworkMode mode);
std::string toString(DegradableLayer layer);
// The inverse of toString; nullopt for a name this build does not know.
std::optional<NetworkMode> networkModeFromString(std::string_view text);
std::optional<DegradableLayer> degradableLayerFromString(std::string_view text);

}  // namespace moat
