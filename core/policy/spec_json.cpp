// SPDX-License-Identifier: Apache-2.0
#include "policy/spec_json.h"

#include <nlohmann/json.hpp>

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
        {"ttl_seconds", spec.ttl.seconds().count()},
        {"allow_degraded", degraded},
        {"command", spec.command},
    };
}

Result<SandboxSpec> specFromJson(const json& in)
{
    try {
        if (in.at("version").get<int>() != 1) {
            return Error{"unsupported sandbox spec version", 0, "Use a moat and moat-supervisor of the same build"};
        }
        SandboxSpec spec;
        spec.sessionId = in.at("session").get<std::string>();
        spec.name = in.at("name").get<std::string>();
        spec.profile = in.at("profile").get<std::string>();
        const auto& image = in.at("image");
        const auto kind = image.at("kind").get<std::string>();
        if (kind != "host" && kind != "rootfs") {
            throw UnknownValue{"image kind '" + kind + "'"};
        }
        spec.image.kind = kind == "host" ? ImageRef::Kind::Host : ImageRef::Kind::RootfsDir;
        spec.image.path = image.at("path").get<std::string>();
        spec.workspace = in.at("workspace").get<std::string>();
        for (const auto& mount : in.at("mounts")) {
            spec.mounts.push_back({mount.at("path").get<std::string>(), mount.at("read_only").get<bool>()});
        }
        spec.environment = in.at("environment").get<std::map<std::string, std::string>>();
        spec.explicitEnv = in.at("explicit_env").get<std::vector<std::string>>();
        spec.sudo = in.at("sudo").get<bool>();
        spec.docker = in.at("docker").get<bool>();
        spec.yolo = in.at("yolo").get<bool>();
        spec.localTcp = in.at("local_tcp").get<bool>();
        spec.network = networkFromString(in.at("net").get<std::string>());
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
        return spec;
    } catch (const UnknownValue& unknown) {
        return Error{"malformed sandbox spec: unknown " + unknown.what, 0,
                     "Use a moat and moat-supervisor of the same build"};
    } catch (const json::exception& e) {
        return Error{std::string("malformed sandbox spec: ") + e.what(), 0, "Use a moat and moat-supervisor of the same build"};
    }
}

}  // namespace moat
