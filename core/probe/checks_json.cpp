// SPDX-License-Identifier: Apache-2.0
#include "probe/checks_json.h"

#include <nlohmann/json.hpp>

#include <set>

namespace moat::probe {

namespace {

constexpr size_t kMaxChecks = 256;
constexpr size_t kMaxNameLength = 64;
constexpr size_t kMaxDetailLength = 8192;

bool isSnakeCase(const std::string& name)
{
    if (name.empty() || name.size() > kMaxNameLength) {
        return false;
    }
    for (char c : name) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
            return false;
        }
    }
    return true;
}

}  // namespace

std::string checksToJson(const Checks& checks)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& check : checks) {
        list.push_back({{"name", check.name}, {"ok", check.ok}, {"detail", check.detail}, {"value", check.value}});
    }
    // Details are built from paths and kernel answers: replace, never throw.
    return nlohmann::ordered_json{{"checks", list}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<Checks> checksFromJson(const std::string& text)
{
    auto invalid = [](const std::string& why) {
        return Error{"the probe inside the sandbox printed an invalid report: " + why, 0,
                     "run `moat probe -v` to see what it printed on stderr"};
    };
    nlohmann::json value;
    try {
        value = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& error) {
        return invalid(error.what());
    }
    if (!value.is_object() || !value.contains("checks") || !value["checks"].is_array()) {
        return invalid("no list of checks");
    }
    if (value["checks"].size() > kMaxChecks) {
        return invalid("too many checks");
    }
    Checks checks;
    std::set<std::string> names;
    for (const auto& entry : value["checks"]) {
        if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string() || !entry.contains("ok") ||
            !entry["ok"].is_boolean() || !entry.contains("detail") || !entry["detail"].is_string() ||
            !entry.contains("value") || !entry["value"].is_number_integer()) {
            return invalid("a check without name, ok, detail and value");
        }
        Check check{entry["name"].get<std::string>(), entry["ok"].get<bool>(), entry["detail"].get<std::string>(),
                    entry["value"].get<long>()};
        if (!isSnakeCase(check.name) || !names.insert(check.name).second) {
            return invalid("a check name that is not snake_case or appears twice");
        }
        if (check.detail.size() > kMaxDetailLength) {
            return invalid("the detail of " + check.name + " is too long");
        }
        checks.push_back(std::move(check));
    }
    return checks;
}

}  // namespace moat::probe
