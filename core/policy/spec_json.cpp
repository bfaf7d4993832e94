// SPDX-License-Identifier: Apache-2.0
#include "policy/spec_json.h"

#include "egress/host_pattern.h"
#include "policy/interception_flags.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace moat {

using nlohmann::json;

namespace {

// Every value is checked: a spec that names something this build does not
// know is refused, never read as something else.
struct UnknownValue {
    std::string what;
};

NetworkMode networkFromString(const std::string& text)
{
    if (auto mode = networkModeFromString(text)) {
        return *mode;
    }
    throw UnknownValue{"network mode '" + text + "'"};
}

// A field this build does not know may be a restriction it would silently
// drop (a newer build's rules, say): refuse the spec instead.
void refuseUnknownFields(const json& object, std::initializer_list<std::string_view> known, const std::string& where)
{
    for (const auto& item : object.items()) {
        if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
            throw UnknownValue{"field '" + item.key() + "'" + where};
        }
    }
}

// An --allow-host value this build cannot read must not reach the proxy, to
// be read there as something else or dropped.
std::vector<std::string> checkedAllowHosts(const json& values)
{
    auto hosts = values.get<std::vector<std::string>>();
    for (size_t i = 0; i < hosts.size(); ++i) {
        if (!HostPattern::parse(hosts[i]).ok()) {
            throw UnknownValue{"--allow-host value (allow_hosts[" + std::to_string(i) + "])"};
        }
    }
    return hosts;
}

}  // namespace

json specToJson(const SandboxSpec& spec)
{
    json mounts = json::array();
    for (const auto& mount : spec.mounts) {
        mounts.push_back({{"path", mount.path}, {"read_only", mount.readOnly}});
    }
    json degraded = json::array();
    for (DegradableLayer layer : spec.allowDegraded) {
        degraded.push_back(toString(layer));
    }
    json secrets = json::array();
    for (const auto& secret : spec.secrets) {
        secrets.push_back({{"name", secret.name}, {"env", secret.envVar}});
    }
    return json{
        {"version", 1},
        {"session", spec.sessionId},
        {"name", spec.name},
        {"profile", spec.profile},
        {"image", {{"kind", spec.image.kind == ImageRef::Kind::Host ? "host" : "rootfs"}, {"path", spec.image.path}}},
        {"workspace", spec.workspace},
        {"mounts", mounts},
        {"environment", spec.environment},
        {"explicit_env", spec.explicitEnv},
        {"sudo", spec.sudo},
        {"docker", spec.docker},
        {"yolo", spec.yolo},
        {"local_tcp", spec.localTcp},
        {"net", toString(spec.network)},
        {"allow_hosts", spec.allowHosts},
        {"rules", spec.httpRules},
        {"secrets", secrets},
        {"upstream_ca", spec.upstreamCaFile},
        {"ask_timeout_seconds", spec.askTimeout.seconds().count()},
        {"ttl_seconds", spec.ttl.seconds().count()},
        {"allow_degraded", degraded},
        {"command", spec.command},
        {"parent", spec.parentSessionId},
        {"request", spec.escalationRequestId},
    };
}

Result<SandboxSpec> specFromJson(const json& in)
{
    try {
        if (in.at("version").get<int>() != 1) {
            return Error{"unsupported sandbox spec version", 0, "Use a moat and moat-supervisor of the same build"};
        }
        refuseUnknownFields(
            in,
            {"version", "session", "name", "profile", "image", "workspace", "mounts", "environment", "explicit_env",
             "sudo", "docker", "yolo", "local_tcp", "net", "allow_hosts", "ttl_seconds", "allow_degraded", "command",
             "parent", "request", "rules", "secrets", "upstream_ca", "ask_timeout_seconds"},
            "");
        SandboxSpec spec;
        spec.sessionId = in.at("session").get<std::string>();
        spec.name = in.at("name").get<std::string>();
        spec.profile = in.at("profile").get<std::string>();
        const auto& image = in.at("image");
        refuseUnknownFields(image, {"kind", "path"}, " in image");
        const auto kind = image.at("kind").get<std::string>();
        if (kind != "host" && kind != "rootfs") {
            throw UnknownValue{"image kind '" + kind + "'"};
        }
        spec.image.kind = kind == "host" ? ImageRef::Kind::Host : ImageRef::Kind::RootfsDir;
        spec.image.path = image.at("path").get<std::string>();
        spec.workspace = in.at("workspace").get<std::string>();
        for (const auto& mount : in.at("mounts").get<std::vector<json>>()) {
            refuseUnknownFields(mount, {"path", "read_only"}, " in a mount");
            spec.mounts.push_back({mount.at("path").get<std::string>(), mount.at("read_only").get<bool>()});
        }
        spec.environment = in.at("environment").get<std::map<std::string, std::string>>();
        spec.explicitEnv = in.at("explicit_env").get<std::vector<std::string>>();
        spec.sudo = in.at("sudo").get<bool>();
        spec.docker = in.at("docker").get<bool>();
        spec.yolo = in.at("yolo").get<bool>();
        spec.localTcp = in.at("local_tcp").get<bool>();
        spec.network = networkFromString(in.at("net").get<std::string>());
        spec.allowHosts = checkedAllowHosts(in.at("allow_hosts"));
        // Fields added after version 1 was first written: absent means none.
        spec.httpRules = in.value("rules", std::vector<std::string>{});
        for (const auto& secret : in.value("secrets", std::vector<json>{})) {
            refuseUnknownFields(secret, {"name", "env"}, " in a secret");
            spec.secrets.push_back({secret.at("name").get<std::string>(), secret.at("env").get<std::string>()});
        }
        spec.upstreamCaFile = in.value("upstream_ca", std::string());
        if (in.contains("ask_timeout_seconds")) {
            auto askTimeout = parseAskTimeout(std::to_string(in.at("ask_timeout_seconds").get<long long>()) + "s");
            if (!askTimeout) {
                return askTimeout.error();
            }
            spec.askTimeout = askTimeout.value();
        }
        auto ttl = Duration::parse(std::to_string(in.at("ttl_seconds").get<long long>()) + "s");
        if (!ttl) {
            return ttl.error();
        }
        spec.ttl = ttl.value();
        for (const auto& layer : in.at("allow_degraded")) {
            const auto name = layer.get<std::string>();
            const auto known = degradableLayerFromString(name);
            if (!known) {
                throw UnknownValue{"degradable layer '" + name + "'"};
            }
            spec.allowDegraded.insert(*known);
        }
        spec.command = in.at("command").get<std::vector<std::string>>();
        spec.parentSessionId = in.at("parent").get<std::string>();
        spec.escalationRequestId = in.at("request").get<std::string>();
        return spec;
    } catch (const UnknownValue& unknown) {
        return Error{"malformed sandbox spec: unknown " + unknown.what, 0,
                     "Use a moat and moat-supervisor of the same build"};
    } catch (const json::exception& e) {
        return Error{std::string("malformed sandbox spec: ") + e.what(), 0, "Use a moat and moat-supervisor of the same build"};
    }
}

}  // namespace moat
