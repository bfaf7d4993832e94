// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/types.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <optional>

#include "base/moat_paths.h"

namespace moat::helper {

// What moatd reads and writes in a session's directory under moat's state
// dir (core/session/session_store.h): spec.json and status.json, which the
// supervisor writes, and status.json again when a supervisor died without
// writing its end. Never anything a sandbox can write.
class SessionRecords {
public:
    explicit SessionRecords(MoatPaths paths) : paths_(std::move(paths)) {}

    const MoatPaths& paths() const { return paths_; }
    QString directory(const QString& id) const;
    QJsonObject status(const QString& id) const;
    QJsonObject spec(const QString& id) const;
    // Ids of every session directory, oldest first by name order.
    QStringList sessionIds() const;

    struct End {
        QString state;
        int exitCode = 125;
    };
    // A supervisor is gone without saying how the session ended. When its
    // status.json already records an end, that is the end; else it becomes
    // "failed" with `why` (and the time), rewritten atomically.
    End settleAfterDeath(const QString& id, const QString& why) const;

    // One `moat ps --json` entry: {"id","name","state","image","flags",
    // "started","expires","exit_code","parent","request"}.
    QJsonObject psEntry(const QString& id) const;

    // Whether `pid` is a live moat-supervisor (its /proc/PID/exe's name).
    static bool supervisorAlive(pid_t pid);

private:
    bool writeStatus(const QString& id, const QJsonObject& status) const;

    MoatPaths paths_;
};

}  // namespace moat::helper
