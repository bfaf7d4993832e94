// SPDX-License-Identifier: Apache-2.0
#include "policy/policy_document.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "base/unique_fd.h"
#include "egress/host_pattern.h"
#include "policy/escalation_policy.h"

namespace moat::policy_document {

namespace {

using nlohmann::json;

const char* const kFixHint = "Correct it on the Policy page (or in policy.toml); nothing was changed";

// The settings policy.toml names: top-level keys, and allow_host's default,
// auto and deny as allow_host, auto_hosts and deny_hosts.
std::set<std::string> settingsNamedIn(const std::string& text)
{
    std::set<std::string> named;
    try {
        const toml::table table = toml::parse(text);
        for (const auto& [rawKey, value] : table) {
            // policy.toml keys may be written with '-' or '_' (allow-host).
            std::string key(rawKey.str());
            std::replace(key.begin(), key.end(), '-', '_');
            if (key != "allow_host") {
                named.insert(key);
                continue;
            }
            if (const auto* inner = value.as_table()) {
                for (const auto& [innerKey, innerValue] : *inner) {
                    std::string name(innerKey.str());
                    std::replace(name.begin(), name.end(), '-', '_');
                    named.insert(name == "default" ? "allow_host" : name + "_hosts");
                }
            }
        }
    } catch (const toml::parse_error&) {
        // Only called on text EscalationPolicy::parse accepted.
    }
    return named;
}

json settingsOf(const EscalationPolicy& policy, const std::set<std::string>& named)
{
    const EscalationPolicy defaults = EscalationPolicy::defaults();
    auto entry = [&](const char* name, json value, json fallback) {
        return json{{"value", std::move(value)},
                    {"default", std::move(fallback)},
                    {"origin", named.count(name) ? "file" : "default"}};
    };
    return json{
        {"allow_host", entry("allow_host", toString(policy.allowHost), toString(defaults.allowHost))},
        {"sudo", entry("sudo", toString(policy.sudo), toString(defaults.sudo))},
        {"docker", entry("docker", toString(policy.docker), toString(defaults.docker))},
        {"net_open", entry("net_open", toString(policy.netOpen), toString(defaults.netOpen))},
        {"auto_hosts", entry("auto_hosts", policy.autoHosts, defaults.autoHosts)},
        {"deny_hosts", entry("deny_hosts", policy.denyHosts, defaults.denyHosts)},
        {"timeout", entry("timeout", policy.timeout.toString(), defaults.timeout.toString())},
    };
}

Result<std::string> grantIn(const json& change, const std::string& name)
{
    const auto& value = change.at(name);
    if (!value.is_string() || (value != "auto" && value != "ask" && value != "deny")) {
        return Error{name + " must be \"auto\", \"ask\" or \"deny\"", 0, kFixHint};
    }
    return value.get<std::string>();
}

Result<toml::array> patternsIn(const json& change, const std::string& name)
{
    const auto& value = change.at(name);
    if (!value.is_array()) {
        return Error{name + " must be a list of host patterns, e.g. [\"*.pypi.org\"]", 0, kFixHint};
    }
    toml::array patterns;
    for (const auto& item : value) {
        if (!item.is_string()) {
            return Error{name + " must hold host patterns (strings)", 0, kFixHint};
        }
        const auto text = item.get<std::string>();
        auto pattern = HostPattern::parse(text);
        if (!pattern) {
            return Error{name + ": '" + text + "' is not a host pattern: " + pattern.error().what, 0, kFixHint};
        }
        patterns.push_back(pattern->toString());
    }
    return patterns;
}

}  // namespace

json describe(const std::string& configDir)
{
    const std::string path = configDir + "/policy.toml";
    json answer{{"path", path}, {"broken", ""}};
    std::error_code ec;
    if (!std::filesystem::exists(path, ec) && !ec) {
        answer["settings"] = settingsOf(EscalationPolicy::defaults(), {});
        return answer;
    }
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    if (file) {
        text << file.rdbuf();
    }
    auto parsed = file ? EscalationPolicy::parse(text.str(), path)
                       : Result<EscalationPolicy>(Error::fromErrno("cannot read " + path, errno));
    if (!parsed) {
        // moatd refuses every request meanwhile (EscalationPolicy::load);
        // the page shows why and the defaults a save would start from.
        answer["broken"] = parsed.error().message();
        answer["settings"] = settingsOf(EscalationPolicy::defaults(), {});
        return answer;
    }
    answer["settings"] = settingsOf(parsed.value(), settingsNamedIn(text.str()));
    return answer;
}

Result<std::string> tomlFromChange(const json& change)
{
    if (!change.is_object()) {
        return Error{"the policy must be a JSON object of settings, e.g. {\"sudo\":\"deny\"}", 0, kFixHint};
    }
    static const std::set<std::string> kKnown = {"allow_host", "sudo",       "docker", "net_open",
                                                 "auto_hosts", "deny_hosts", "timeout"};
    for (const auto& [name, value] : change.items()) {
        if (!kKnown.count(name)) {
            return Error{"unknown policy setting '" + name +
                             "' (known: allow_host, sudo, docker, net_open, auto_hosts, deny_hosts, timeout)",
                         0, kFixHint};
        }
    }
    toml::table document;
    if (change.contains("timeout")) {
        const auto& value = change.at("timeout");
        auto duration = value.is_string() ? Duration::parse(value.get<std::string>())
                                          : Result<Duration>(Error{"not a string"});
        if (!duration || duration->seconds() > std::chrono::seconds(600)) {
            return Error{"timeout must be a duration of at most 600s, written like \"120s\" or \"5m\"", 0, kFixHint};
        }
        document.insert("timeout", duration->toString());
    }
    for (const char* name : {"sudo", "docker", "net_open"}) {
        if (change.contains(name)) {
            auto grant = grantIn(change, name);
            if (!grant) {
                return grant.error();
            }
            document.insert(name, grant.value());
        }
    }
    toml::table allowHost;
    if (change.contains("allow_host")) {
        auto grant = grantIn(change, "allow_host");
        if (!grant) {
            return grant.error();
        }
        allowHost.insert("default", grant.value());
    }
    for (const auto& [name, key] : {std::pair{"auto_hosts", "auto"}, std::pair{"deny_hosts", "deny"}}) {
        if (change.contains(name)) {
            auto patterns = patternsIn(change, name);
            if (!patterns) {
                return patterns.error();
            }
            allowHost.insert(key, std::move(patterns.value()));
        }
    }
    if (!allowHost.empty()) {
        document.insert("allow_host", std::move(allowHost));
    }
    std::ostringstream text;
    text << "# moat's escalation policy (docs/escalation.md), written by moatd for moat-manager.\n"
            "# Settings not named here are the defaults; resources/policy.toml shows every key.\n"
         << document << "\n";
    // The same parser that judges requests must accept what is written;
    // anything it refuses is refused here, before the file is touched.
    auto checked = EscalationPolicy::parse(text.str(), "the new policy");
    if (!checked) {
        return Error{checked.error().what, 0, kFixHint};
    }
    return text.str();
}

Status writeAtomically(const std::string& configDir, const std::string& text)
{
    std::error_code ec;
    std::filesystem::create_directories(configDir, ec);
    if (ec) {
        return Error::fromErrno("cannot create " + configDir, ec.value(), "Check the directory's owner and mode");
    }
    std::string temporary = configDir + "/.policy.toml.XXXXXX";
    // mkstemp creates the file 0600 and O_EXCL: nobody else's file is reused.
    UniqueFd fd(::mkostemp(temporary.data(), O_CLOEXEC));
    if (!fd) {
        return Error::fromErrno("cannot create a temporary file in " + configDir, errno,
                                "Check the directory's owner and mode");
    }
    auto fail = [&](const std::string& what) {
        const int saved = errno;
        ::unlink(temporary.c_str());
        return Error::fromErrno(what, saved, "policy.toml was not changed");
    };
    {
        // Through the path mkstemp made (and this fd keeps): the file is ours.
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            return fail("cannot write " + temporary);
        }
    }
    if (::fchmod(fd.get(), 0600) != 0 || ::fsync(fd.get()) != 0) {
        return fail("cannot sync " + temporary);
    }
    const std::string path = configDir + "/policy.toml";
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        return fail("cannot replace " + path);
    }
    UniqueFd directory(::open(configDir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory) {
        ::fsync(directory.get());  // the rename itself survives a crash
    }
    return {};
}

}  // namespace moat::policy_document
