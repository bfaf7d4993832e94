// SPDX-License-Identifier: Apache-2.0
#include "audit_command.h"

#include "audit/log_verifier.h"
#include "base/moat_paths.h"
#include "record_key_store.h"
#include "session_directory.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace moat::cli {

namespace fs = std::filesystem;

namespace {

// What status.json says, as far as a missing seal is concerned. Not
// authenticated: it only decides whether a log without a seal is reported
// as open, crashed, or cut (docs/records.md).
LogVerifier::SessionState sessionState(const fs::path& dir)
{
    std::ifstream file(dir / "status.json");
    const auto status = nlohmann::json::parse(file, nullptr, false);
    if (!status.is_object()) {
        return LogVerifier::SessionState::Unknown;
    }
    const std::string state = status.value("state", std::string());
    if (state == "exited" || state == "expired" || state == "stopped" || state == "failed") {
        return LogVerifier::SessionState::Ended;
    }
    if (state != "running") {
        return LogVerifier::SessionState::Unknown;
    }
    // Still running only while its supervisor is: that pid, that program,
    // not a zombie.
    return isLiveSupervisor(status.value("supervisor_pid", 0)) ? LogVerifier::SessionState::Running
                                                                : LogVerifier::SessionState::Unknown;
}

bool plausibleId(const std::string& id)
{
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
    });
}

// Oldest first, by when each session's spec was written.
std::vector<std::string> allSessions(const fs::path& sessions)
{
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(sessions, ec)) {
        if (entry.is_directory(ec) && plausibleId(entry.path().filename().string())) {
            found.emplace_back(fs::last_write_time(entry.path() / "spec.json", ec), entry.path().filename().string());
        }
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> ids;
    for (auto& [time, id] : found) {
        ids.push_back(std::move(id));
    }
    return ids;
}

std::string where(keychain::RecordKeyStore& store, const std::string& keyId)
{
    auto keys = store.keysById(keyId);
    return "record key " + keyId + (keys ? ", in " + keys.value()->location() : std::string());
}

// Prints what was found; true when the log counts as intact.
bool report(const std::string& id, const LogVerdict& verdict, keychain::RecordKeyStore& store)
{
    const std::string lines = std::to_string(verdict.lines) + (verdict.lines == 1 ? " line" : " lines");
    switch (verdict.outcome) {
        case LogVerdict::Outcome::Unverifiable:
            std::cout << id << ": cannot verify: " << verdict.problem << "\n";
            return false;
        case LogVerdict::Outcome::Broken:
            if (verdict.badLine == 0) {
                std::cout << id << ": BROKEN: the seal (events.seal): " << verdict.problem << "\n";
            } else {
                std::cout << id << ": BROKEN at line " << verdict.badLine << ": " << verdict.problem << "\n";
                if (!verdict.excerpt.empty()) {
                    std::cout << "  line " << verdict.badLine << ": " << verdict.excerpt << "\n";
                }
            }
            return false;
        case LogVerdict::Outcome::Intact:
            break;
    }
    const std::string key = verdict.keyId.empty() ? std::string() : " (" + where(store, verdict.keyId) + ")";
    switch (verdict.ending) {
        case LogVerdict::Ending::Sealed:
            std::cout << id << ": intact, " << lines << ", sealed" << key << "\n";
            break;
        case LogVerdict::Ending::Running:
            std::cout << id << ": intact so far, " << lines << ", still running (sealed when it ends)" << key << "\n";
            break;
        case LogVerdict::Ending::Unsealed:
            std::cout << id << ": intact, " << lines << ", but not sealed: the session did not end cleanly (its "
                      << "supervisor was killed or crashed), so lines after line " << verdict.lines
                      << " may be lost without trace" << key << "\n";
            break;
    }
    if (verdict.tornTailBytes > 0) {
        std::cout << "  then a torn last line (" << verdict.tornTailBytes
                  << " bytes without a newline): a write cut short when the supervisor stopped; not counted as "
                     "tampering, not checked\n";
    }
    return true;
}

}  // namespace

AuditCommand::AuditCommand(CLI::App& parent)
{
    audit_ = parent.add_subcommand("audit", "Check sessions' records");
    audit_->require_subcommand(1);
    verify_ = audit_->add_subcommand("verify",
                                     "Check that sessions' records are intact (exit 0), else show the "
                                     "first bad line of each (exit 1)");
    verify_->footer(
        "Each line of a session's events.jsonl carries the SHA-256 of the line before it and an HMAC under your\n"
        "record key; the session's end is signed (events.seal). See docs/records.md.\n"
        "Exit status: 0 when every log is intact; 1 when one is broken or cannot be checked; 125 for a bad argument.");
    auto* id = verify_->add_option("id", sessionId_, "The session's id (see the state directory, or moat ps)")
                   ->type_name("ID");
    auto* all = verify_->add_flag("--all", all_, "Every session in the state directory");
    id->excludes(all);
    all->excludes(id);
}

int AuditCommand::execute()
{
    if (sessionId_.empty() && !all_) {
        std::cerr << "moat: audit verify needs a session ID or --all. See 'moat audit verify --help'\n";
        return 125;
    }
    const MoatPaths paths = MoatPaths::fromEnvironment();
    const fs::path sessions = fs::path(paths.stateDir) / "sessions";
    std::vector<std::string> ids;
    if (all_) {
        ids = allSessions(sessions);
        if (ids.empty()) {
            std::cout << "no sessions in " << sessions.string() << "\n";
            return 0;
        }
    } else {
        std::error_code ec;
        if (!plausibleId(sessionId_) || !fs::is_directory(sessions / sessionId_, ec)) {
            std::cerr << "moat: no session " << sessionId_ << " in " << sessions.string()
                      << ". 'moat audit verify --all' checks every session there\n";
            return 125;
        }
        ids.push_back(sessionId_);
    }

    keychain::RecordKeyStore store(paths);
    const LogVerifier verifier([&store](const std::string& keyId) { return store.keysById(keyId); });
    int broken = 0;
    for (const auto& id : ids) {
        const fs::path dir = sessions / id;
        const LogVerdict verdict = verifier.verify((dir / "events.jsonl").string(), id, sessionState(dir));
        if (!report(id, verdict, store)) {
            ++broken;
        }
    }
    if (ids.size() > 1) {
        std::cout << ids.size() - static_cast<size_t>(broken) << " of " << ids.size() << " logs intact\n";
    }
    return broken == 0 ? 0 : 1;
}

}  // namespace moat::cli
