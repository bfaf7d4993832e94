// SPDX-License-Identifier: Apache-2.0
#include "session/session_store.h"

#include "policy/spec_json.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

namespace moat {

Result<SessionStore> SessionStore::create(const MoatPaths& paths, const SandboxSpec& spec)
{
    SessionStore store;
    store.directory_ = paths.sessionDir(spec.sessionId);
    std::error_code ec;
    std::filesystem::create_directories(paths.stateDir + "/sessions", ec);
    if (ec) {
        return Error::fromErrno("cannot create moat's state directory " + paths.stateDir, ec.value(),
                                "Check its permissions, or point MOAT_STATE_DIR somewhere writable");
    }
    ::chmod(paths.stateDir.c_str(), 0700);
    if (::mkdir(store.directory_.c_str(), 0700) != 0) {
        return Error::fromErrno("cannot create the session directory " + store.directory_, errno);
    }
    // Values passed with --env may be secrets: the record keeps their names.
    auto recorded = specToJson(spec);
    for (const auto& name : spec.explicitEnv) {
        recorded["environment"][name] = "(not recorded)";
    }
    if (auto written = store.writeAtomically("spec.json", recorded.dump(2) + "\n"); !written) {
        return written.error();
    }
    return store;
}

Status SessionStore::writeStatus(const nlohmann::json& status) const
{
    return writeAtomically("status.json", status.dump(2) + "\n");
}

Status SessionStore::writeAtomically(const std::string& name, const std::string& content) const
{
    const std::string final = directory_ + "/" + name;
    const std::string temporary = final + ".tmp";
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        return Error::fromErrno("cannot write " + final, errno);
    }
    // Renamed into place, so a reader never sees half a file; not fsynced:
    // these files describe the session, the event log is its record.
    const bool ok = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
    ::close(fd);
    if (!ok || ::rename(temporary.c_str(), final.c_str()) != 0) {
        const int err = errno;
        ::unlink(temporary.c_str());
        return Error::fromErrno("cannot write " + final, err);
    }
    return {};
}

}  // namespace moat
