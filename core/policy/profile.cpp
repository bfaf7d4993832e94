// SPDX-License-Identifier: Apache-2.0
#include "policy/profile.h"

#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "base/moat_paths.h"
#include "egress/host_pattern.h"
#include "policy/duration.h"
#include "policy/http_rule.h"

#ifndef MOAT_PROFILES_DIR
#define MOAT_PROFILES_DIR "/usr/local/share/moat/profiles"
#endif

namespace moat {

namespace {

constexpr size_t kMaxProfileBytes = 64 * 1024;
constexpr size_t kMaxNameLength = 64;
constexpr size_t kMaxValueLength = 200;

const char* const kFileHint = "Fix the profile (docs/rules.md lists its keys) or remove it";

struct ParseFailure {
    std::string what;
};

std::string where(const toml::node& node, const std::string& source)
{
    return source + ":" + std::to_string(node.source().begin.line) + ": ";
}

std::string keyName(std::string_view key)
{
    std::string name(key);
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

std::string nameProblem(std::string_view name)
{
    if (name.empty() || name.size() > kMaxNameLength) {
        return "a profile name has 1 to 64 characters";
    }
    if (!std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }) ||
        name.front() == '-') {
        return "a profile name is lower-case letters, digits and '-', not starting with '-'";
    }
    return {};
}

// VALUE of --profile NAME=VALUE goes into host names and globs, so it may
// hold no glob character and nothing that changes how a path reads.
std::string valueProblem(std::string_view value)
{
    if (value.empty() || value.size() > kMaxValueLength) {
        return "it must have 1 to 200 characters";
    }
    if (!std::all_of(value.begin(), value.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                   c == '.' || c == '/';
        })) {
        return "it may hold only letters, digits, '-', '_', '.' and '/'";
    }
    if (value.front() == '/' || value.back() == '/' || value.find("//") != std::string_view::npos ||
        value.front() == '.' || value.find("/.") != std::string_view::npos) {
        return "it may not start or end with '/', hold '//', or have a segment starting with '.'";
    }
    return {};
}

std::string substitute(const toml::node& node, std::string text, const Profile& profile,
                       const std::optional<std::string>& value)
{
    const std::string placeholder = "${" + profile.parameter + "}";
    if (!profile.parameter.empty() && value) {
        for (size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at)) {
            text.replace(at, placeholder.size(), *value);
            at += value->size();
        }
    }
    if (const size_t at = text.find("${"); at != std::string::npos) {
        throw ParseFailure{where(node, profile.source) + "'" + text.substr(at, text.find('}', at) - at + 1) +
                           "' is not this profile's parameter" +
                           (profile.parameter.empty() ? " (it declares none)" : " (${" + profile.parameter + "})")};
    }
    return text;
}

std::vector<std::string> stringsAt(const toml::node& node, const std::string& key, const Profile& profile,
                                   const std::optional<std::string>& value)
{
    const auto* array = node.as_array();
    if (!array) {
        throw ParseFailure{where(node, profile.source) + key + " must be a list of strings"};
    }
    std::vector<std::string> out;
    for (const auto& item : *array) {
        const auto* text = item.as_string();
        if (!text) {
            throw ParseFailure{where(item, profile.source) + key + " must hold strings"};
        }
        out.push_back(substitute(item, text->get(), profile, value));
        Status valid;
        if (key == "rules") {
            auto rule = parseRule(out.back());
            valid = rule ? Status() : Status(rule.error());
        } else if (key == "allow_host") {
            auto host = HostPattern::parse(out.back());
            valid = host ? Status() : Status(host.error());
        } else {
            const std::string& secret = out.back();
            const size_t equals = secret.find('=');
            const std::string secretName = secret.substr(0, equals);
            const std::string envVar = equals == std::string::npos ? "" : secret.substr(equals + 1);
            const bool goodName =
                !secretName.empty() && secretName.size() <= 64 &&
                std::all_of(secretName.begin(), secretName.end(), [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
                });
            const bool goodVar = equals == std::string::npos ||
                                 (!envVar.empty() && !std::isdigit(static_cast<unsigned char>(envVar[0])) &&
                                  std::all_of(envVar.begin(), envVar.end(), [](char c) {
                                      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                                  }));
            if (!goodName || !goodVar) {
                valid = Error{"'" + secret + "' is not NAME or NAME=ENVVAR"};
            }
        }
        if (!valid) {
            throw ParseFailure{where(item, profile.source) + key + ": " + valid.error().what};
        }
    }
    return out;
}

std::string stringAt(const toml::node& node, const std::string& key, const std::string& source)
{
    const auto* text = node.as_string();
    if (!text) {
        throw ParseFailure{where(node, source) + key + " must be a string"};
    }
    return text->get();
}

Result<std::string> readFile(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        return Error::fromErrno("cannot read profile " + path, errno);
    }
    std::ostringstream text;
    text << file.rdbuf();
    if (text.str().size() > kMaxProfileBytes) {
        return Error{"profile " + path + " is larger than 64 KiB", 0, "A profile is a short list of flags"};
    }
    return text.str();
}

}  // namespace

Result<Profile> Profile::parse(std::string_view text, const std::string& name, const std::string& source,
                               const std::optional<std::string>& value)
{
    Profile profile;
    profile.name = name;
    profile.source = source;
    try {
        const toml::table table = toml::parse(text, source);
        // The parameter first: the lists below substitute it.
        if (const auto* parameter = table.get("parameter")) {
            profile.parameter = stringAt(*parameter, "parameter", source);
            if (profile.parameter.empty() || !std::all_of(profile.parameter.begin(), profile.parameter.end(),
                                                          [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; })) {
                throw ParseFailure{where(*parameter, source) + "parameter must be a lower-case name, as in \"repo\""};
            }
        }
        if (!profile.parameter.empty() && !value) {
            return Error{"profile '" + name + "' needs a value for ${" + profile.parameter + "}", 0,
                         "Run with --profile " + name + "=VALUE (" + source + " says what it is)"};
        }
        if (profile.parameter.empty() && value) {
            return Error{"profile '" + name + "' takes no value, but was given '" + *value + "'", 0,
                         "Run with --profile " + name};
        }
        if (value) {
            if (const std::string why = valueProblem(*value); !why.empty()) {
                return Error{"the value of --profile " + name + "=" + *value + " is refused: " + why, 0,
                             "Give it as the profile describes, as in OWNER/REPO"};
            }
        }
        for (const auto& [rawKey, node] : table) {
            const std::string key = keyName(rawKey.str());
            if (key == "parameter") {
                continue;
            } else if (key == "description") {
                profile.description = stringAt(node, key, source);
            } else if (key == "allow_host") {
                profile.flags.allowHosts = stringsAt(node, key, profile, value);
            } else if (key == "rules") {
                profile.flags.rules = stringsAt(node, key, profile, value);
            } else if (key == "secrets") {
                profile.flags.secrets = stringsAt(node, key, profile, value);
            } else if (key == "net") {
                profile.flags.net = stringAt(node, key, source);
                if (*profile.flags.net != "proxy" && *profile.flags.net != "none" && *profile.flags.net != "open") {
                    throw ParseFailure{where(node, source) + "net must be \"proxy\", \"none\" or \"open\""};
                }
            } else if (key == "ttl") {
                profile.flags.ttl = stringAt(node, key, source);
                if (auto duration = Duration::parse(*profile.flags.ttl); !duration) {
                    throw ParseFailure{where(node, source) + "ttl: " + duration.error().what};
                }
            } else {
                throw ParseFailure{where(node, source) + "unknown key " + std::string(rawKey.str()) +
                                   " (known: description, parameter, allow_host, rules, secrets, net, ttl)"};
            }
        }
    } catch (const toml::parse_error& error) {
        return Error{source + ":" + std::to_string(error.source().begin.line) + ": " + std::string(error.description()),
                     0, kFileHint};
    } catch (const ParseFailure& failure) {
        return Error{failure.what, 0, kFileHint};
    }
    return profile;
}

Result<Profile> Profile::load(std::string_view spec, const std::string& userDir, const std::string& builtinDir)
{
    const size_t equals = spec.find('=');
    const std::string name(spec.substr(0, equals));
    const std::optional<std::string> value =
        equals == std::string_view::npos ? std::nullopt : std::optional<std::string>(spec.substr(equals + 1));
    if (const std::string why = nameProblem(name); !why.empty()) {
        return Error{"invalid --profile '" + std::string(spec) + "': " + why, 0,
                     "Write --profile NAME or --profile NAME=VALUE, as in --profile github-readonly=OWNER/REPO"};
    }
    for (const std::string& dir : {userDir, builtinDir}) {
        const std::string path = dir + "/" + name + ".toml";
        std::error_code ec;
        if (!std::filesystem::exists(path, ec) && !ec) {
            continue;
        }
        auto text = readFile(path);
        if (!text) {
            return text.error();
        }
        return parse(text.value(), name, path, value);
    }
    std::string known;
    for (const auto& other : profileNames(userDir, builtinDir)) {
        known += (known.empty() ? "" : ", ") + other;
    }
    return Error{"there is no profile '" + name + "' (looked for " + userDir + "/" + name + ".toml and " + builtinDir +
                     "/" + name + ".toml)",
                 0, known.empty() ? "No profile is installed" : "Known profiles: " + known};
}

Result<Profile> Profile::load(std::string_view spec)
{
    return load(spec, userProfileDir(), builtinProfileDir());
}

std::string builtinProfileDir()
{
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        std::string dir(self, static_cast<size_t>(n));
        dir = dir.substr(0, dir.find_last_of('/')) + "/../share/moat/profiles";
        std::error_code ec;
        if (std::filesystem::is_directory(dir, ec)) {
            return std::filesystem::path(dir).lexically_normal().string();
        }
    }
    return MOAT_PROFILES_DIR;
}

std::string userProfileDir()
{
    return MoatPaths::fromEnvironment().configDir + "/profiles";
}

std::vector<std::string> profileNames(const std::string& userDir, const std::string& builtinDir)
{
    std::set<std::string> names;
    for (const std::string& dir : {userDir, builtinDir}) {
        std::error_code ec;
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const auto& path = it->path();
            if (path.extension() == ".toml" && nameProblem(path.stem().string()).empty()) {
                names.insert(path.stem().string());
            }
        }
    }
    return {names.begin(), names.end()};
}

ProfileFlags mergeProfile(const ProfileFlags& commandLine, const ProfileFlags& profile)
{
    ProfileFlags merged = commandLine;
    merged.rules.insert(merged.rules.end(), profile.rules.begin(), profile.rules.end());
    // Appends the profile's entries whose key the merged list lacks.
    auto unite = [](std::vector<std::string>& into, const std::vector<std::string>& more, auto key) {
        std::set<std::string> seen;
        for (const auto& entry : into) {
            seen.insert(key(entry));
        }
        for (const auto& entry : more) {
            if (seen.insert(key(entry)).second) {
                into.push_back(entry);
            }
        }
    };
    unite(merged.allowHosts, profile.allowHosts, [](const std::string& text) {
        auto pattern = HostPattern::parse(text);
        return pattern ? pattern->toString() : text;
    });
    unite(merged.secrets, profile.secrets, [](const std::string& text) { return text.substr(0, text.find('=')); });
    if (!merged.net) {
        merged.net = profile.net;
    }
    if (!merged.ttl) {
        merged.ttl = profile.ttl;
    }
    return merged;
}

}  // namespace moat
