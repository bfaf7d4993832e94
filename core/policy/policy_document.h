// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "base/error.h"

namespace moat {

// The user's policy.toml (EscalationPolicy) as moatd shows and changes it for
// moat-manager's Policy page (GetPolicy / SetPolicy, docs/moatd.md).
//
// Shown: every setting with its value, the shipped default and where the
// value came from ("default" or "file"):
//   {"path": ".../policy.toml", "broken": "" or why the file is unusable,
//    "settings": {"sudo": {"value":"ask","default":"ask","origin":"default"},
//                 "docker", "net_open", "allow_host": the same,
//                 "auto_hosts", "deny_hosts": {"value":[...], ...},
//                 "timeout": {"value":"2m", ...}}}
// Changed: an object naming only the settings the user set, e.g.
//   {"sudo":"deny","auto_hosts":["*.pypi.org"]}
// A setting left out is the default, and is not written to the file.
namespace policy_document {

// The settings a change may name, in the order they are shown.
inline constexpr const char* kGrantSettings[] = {"allow_host", "sudo", "docker", "net_open"};

// GetPolicy's answer for <configDir>/policy.toml.
nlohmann::json describe(const std::string& configDir);

// The policy.toml text for a change, checked by the same parser moatd
// judges requests with (EscalationPolicy::parse); an Error names the
// setting and what is wrong with it.
Result<std::string> tomlFromChange(const nlohmann::json& change);

// Replaces <configDir>/policy.toml with `text` at once (a 0600 temporary
// file in the same directory, synced, renamed over it): a reader sees the
// old file or the new one, never half of it.
Status writeAtomically(const std::string& configDir, const std::string& text);

}  // namespace policy_document
}  // namespace moat
