// SPDX-License-Identifier: Apache-2.0
#include "hostsnapshot.h"

#include "processtable.h"

#include <QDir>
#include <QFile>

namespace {

QStringList added(const QSet<QString>& now, const QSet<QString>& before, const QString& what)
{
    QStringList lines;
    for (const QString& item : now) {
        if (!before.contains(item)) {
            lines.append(what + QStringLiteral(": ") + item);
        }
    }
    lines.sort();
    return lines;
}

}  // namespace

HostSnapshot HostSnapshot::take(const QString& installDir)
{
    HostSnapshot snapshot;
    QFile mountinfo(QStringLiteral("/proc/self/mountinfo"));
    if (mountinfo.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : mountinfo.readAll().split('\n')) {
            if (!line.isEmpty()) {
                snapshot.mounts_.insert(QString::fromUtf8(line));
            }
        }
    }
    for (pid_t pid : ProcessTable::withExecutableIn(installDir)) {
        snapshot.processes_.insert(QStringLiteral("%1 %2").arg(pid).arg(
            QString::fromUtf8(ProcessTable::commandLine(pid).replace('\0', ' '))));
    }
    for (const QString& entry : QDir(QStringLiteral("/tmp")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot |
                                                                          QDir::Hidden | QDir::System)) {
        // The suite's own directories (other test programs may run at the
        // same time under ctest -j) are not moat's litter.
        if (!entry.startsWith(QLatin1String("moat-it-"))) {
            snapshot.tmpEntries_.insert(QStringLiteral("/tmp/") + entry);
        }
    }
    return snapshot;
}

QStringList HostSnapshot::newSince(const HostSnapshot& before) const
{
    return added(mounts_, before.mounts_, QStringLiteral("new mount")) +
           added(processes_, before.processes_, QStringLiteral("process still running")) +
           added(tmpEntries_, before.tmpEntries_, QStringLiteral("new entry in /tmp"));
}
