// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace moat {

// The `moat run` flags a profile may set, in the command line's spelling.
// The same struct carries what the command line gave, for mergeProfile().
struct ProfileFlags {
    std::vector<std::string> allowHosts;  // --allow-host HOST[:PORT]
    std::vector<std::string> rules;       // --rule, HTTP or push (http_rule.h)
    std::vector<std::string> secrets;     // --secret NAME[=ENVVAR]
    std::optional<std::string> net;       // --net proxy|none|open; nullopt: not set
    std::optional<std::string> ttl;       // --ttl DURATION; nullopt: not set

    friend bool operator==(const ProfileFlags&, const ProfileFlags&) = default;
};

// `--profile NAME[=VALUE]`: profiles/NAME.toml from the user's config
// directory, else the built-in one of that name (docs/rules.md):
//
//   description = "what it is for"
//   parameter = "repo"                  optional: then --profile NAME=VALUE is
//                                       required and ${repo} in allow_host and
//                                       rules is replaced by VALUE
//   allow_host = ["api.github.com"]
//   rules = ["GET api.github.com /repos/${repo}/issues/** allow"]
//   secrets = ["GH_TOKEN"]              NAME[=ENVVAR]
//   net = "proxy"                       proxy | none | open
//   ttl = "2h"
//
// Every value is checked here as the flag would be (rules parse, hosts are
// host patterns, ttl is a duration); an unknown key or a bad value is an
// Error naming the file and line. Profiles are read only from the user's
// config directory and moat's own install, never from a workspace: a file a
// sandbox can write must not choose the next sandbox's rules.
struct Profile {
    std::string name;
    std::string source;  // the file it was read from
    std::string description;
    std::string parameter;  // the placeholder's name, empty when none
    ProfileFlags flags;

    // The text of NAME.toml; `value` is VALUE of --profile NAME=VALUE.
    static Result<Profile> parse(std::string_view text, const std::string& name, const std::string& source,
                                 const std::optional<std::string>& value);

    // spec is NAME or NAME=VALUE. userDir/NAME.toml when it exists (a broken
    // one is an error, never a fallback), else builtinDir/NAME.toml.
    static Result<Profile> load(std::string_view spec, const std::string& userDir, const std::string& builtinDir);
    // The same with MoatPaths' configDir + "/profiles" and builtinProfileDir().
    static Result<Profile> load(std::string_view spec);
};

// Where the built-in profiles are: ../share/moat/profiles beside the
// running binary when it exists (the build tree, or a relocated install),
// else the installed DATADIR/moat/profiles.
std::string builtinProfileDir();
// The user's profiles: MoatPaths::fromEnvironment().configDir + "/profiles".
std::string userProfileDir();

// The names of the profiles in both directories, sorted, without duplicates.
std::vector<std::string> profileNames(const std::string& userDir, const std::string& builtinDir);

// The flags a run gets from its command line and one profile:
//  - rules: the command line's first, then the profile's (first match wins,
//    so the command line can override a profile's rule for a path);
//  - allow_host: the union, command line first, duplicates dropped;
//  - secrets: the union by NAME; the command line's ENVVAR wins;
//  - net, ttl: the command line's when given, else the profile's.
ProfileFlags mergeProfile(const ProfileFlags& commandLine, const ProfileFlags& profile);

}  // namespace moat
