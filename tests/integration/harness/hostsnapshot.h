// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSet>
#include <QString>
#include <QStringList>

// What a failed `moat run` could leave on the host, captured before and after:
// the test process's mount table (the host's mount namespace), processes
// running from the private install (moat, moat-supervisor), and the entries
// of /tmp. (A session record in the state directory is not litter.)
class HostSnapshot
{
public:
    static HostSnapshot take(const QString& installDir);

    // Human-readable descriptions of everything present now but not in `before`.
    QStringList newSince(const HostSnapshot& before) const;

private:
    QSet<QString> mounts_;
    QSet<QString> processes_;
    QSet<QString> tmpEntries_;
};
