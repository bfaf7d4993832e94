// SPDX-License-Identifier: Apache-2.0
#include "session_directory.h"

#include "policy/spec_json.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

namespace moat::cli {

namespace fs = std::filesystem;

namespace {

nlohmann::json readJsonFile(const fs::path& path)
{
    std::ifstream file(path);
    auto json = nlohmann::json::parse(file, nullptr, false);
    return json.is_object() ? json : nlohmann::json::object();
}

bool plausibleId(const std::string& id)
{
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
    });
}

// A session whose supervisor never wrote status.json: still starting when
// its spec is fresh, else it died during setup without a word.
constexpr auto kStartGrace = std::chrono::seconds(60);

std::string effectiveState(const fs::path& dir, const nlohmann::json& status, int* livePid)
{
    *livePid = 0;
    if (status.empty()) {
        std::error_code ec;
        const auto written = fs::last_write_time(dir / "spec.json", ec);
        if (!ec && fs::file_time_type::clock::now() - written < kStartGrace) {
            return "starting";
        }
        return "failed";
    }
    const std::string state = status.value("state", std::string("unknown"));
    if (state != "running") {
        return state;
    }
    const int pid = status.value("supervisor_pid", 0);
    if (!isLiveSupervisor(pid)) {
        return "failed";
    }
    *livePid = pid;
    return state;
}

}  // namespace

bool isLiveSupervisor(int pid)
{
    if (pid <= 0) {
        return false;
    }
    // "pid (comm) state ...": that program, and not a zombie.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) {
        return false;
    }
    const size_t open = line.find('(');
    const size_t close = line.rfind(')');
    return open != std::string::npos && close != std::string::npos && close + 2 < line.size() &&
           line.substr(open + 1, close - open - 1) == "moat-supervisor" && line[close + 2] != 'Z' &&
           line[close + 2] != 'X';
}

std::string SessionEntry::name() const
{
    return spec.value("name", std::string());
}

nlohmann::json SessionEntry::toPsJson() const
{
    nlohmann::json flags = nlohmann::json::array();
    std::string image;
    if (auto parsed = specFromJson(spec); parsed) {
        flags = parsed->flagBadges();
        image = parsed->image.toString();
    } else if (spec.contains("image") && spec["image"].is_object()) {
        image = spec["image"].value("kind", std::string()) == "host" ? "host"
                                                                      : spec["image"].value("path", std::string());
    }
    nlohmann::json entry = {{"id", id},
                            {"name", name()},
                            {"state", state},
                            {"image", image},
                            {"flags", flags},
                            {"started", status.value("started", std::string())},
                            {"expires", status.value("expires", std::string())},
                            {"exit_code", nullptr}};
    if (status.contains("exit_code") && status["exit_code"].is_number_integer()) {
        entry["exit_code"] = status["exit_code"];
    } else if (state == "failed") {
        entry["exit_code"] = 125;
    }
    if (!spec.value("parent", std::string()).empty()) {
        entry["parent"] = spec["parent"];
    }
    if (supervisorPid > 0) {
        entry["supervisor_pid"] = supervisorPid;
    }
    return entry;
}

Result<SessionEntry> SessionDirectory::read(const std::string& id) const
{
    if (!plausibleId(id)) {
        return Error{"'" + id + "' is not a session id", 0, "See 'moat ps --all' for the sessions there are"};
    }
    const fs::path dir = paths_.sessionDir(id);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        return Error{"no session " + id + " in " + paths_.stateDir + "/sessions", 0,
                     "See 'moat ps --all' for the sessions there are"};
    }
    SessionEntry entry;
    entry.id = id;
    entry.directory = dir.string();
    entry.spec = readJsonFile(dir / "spec.json");
    entry.status = readJsonFile(dir / "status.json");
    entry.state = effectiveState(dir, entry.status, &entry.supervisorPid);
    return entry;
}

std::vector<SessionEntry> SessionDirectory::list() const
{
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    std::error_code ec;
    for (const auto& item : fs::directory_iterator(paths_.stateDir + "/sessions", ec)) {
        const std::string id = item.path().filename().string();
        if (item.is_directory(ec) && plausibleId(id)) {
            found.emplace_back(fs::last_write_time(item.path() / "spec.json", ec), id);
        }
    }
    std::sort(found.begin(), found.end());
    std::vector<SessionEntry> sessions;
    for (const auto& [time, id] : found) {
        if (auto entry = read(id); entry) {
            sessions.push_back(std::move(entry.value()));
        }
    }
    return sessions;
}

Result<SessionEntry> SessionDirectory::resolve(const std::string& idPrefixOrName) const
{
    if (idPrefixOrName.empty()) {
        return Error{"no session given", 0, "Name one by id, id prefix or name; see 'moat ps --all'"};
    }
    if (plausibleId(idPrefixOrName)) {
        if (auto exact = read(idPrefixOrName); exact) {
            return exact;
        }
    }
    std::vector<SessionEntry> byPrefix;
    std::vector<SessionEntry> byName;
    for (auto& entry : list()) {
        if (entry.id.rfind(idPrefixOrName, 0) == 0) {
            byPrefix.push_back(entry);
        }
        if (entry.name() == idPrefixOrName) {
            byName.push_back(std::move(entry));
        }
    }
    if (byPrefix.size() == 1) {
        return byPrefix.front();
    }
    if (byPrefix.size() > 1) {
        std::string ids;
        for (const auto& entry : byPrefix) {
            ids += (ids.empty() ? "" : ", ") + entry.id;
        }
        return Error{"'" + idPrefixOrName + "' matches more than one session (" + ids + ")", 0,
                     "Give more of the id"};
    }
    if (!byName.empty()) {
        return byName.back();  // the newest of that name
    }
    return Error{"no session matches '" + idPrefixOrName + "' in " + paths_.stateDir + "/sessions", 0,
                 "See 'moat ps --all' for the sessions there are"};
}

}  // namespace moat::cli
