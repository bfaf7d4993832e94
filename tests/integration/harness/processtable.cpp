// SPDX-License-Identifier: Apache-2.0
#include "processtable.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>

#include <signal.h>
#include <unistd.h>

namespace {

QList<pid_t> allPids()
{
    QList<pid_t> pids;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& entry : entries) {
        bool numeric = false;
        const int pid = entry.toInt(&numeric);
        if (numeric && pid != ::getpid()) {
            pids.append(pid);
        }
    }
    return pids;
}

}  // namespace

bool ProcessTable::isAlive(pid_t pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return false;
    }
    const QByteArray line = stat.readAll();
    const int close = line.lastIndexOf(')');
    if (close < 0 || close + 2 >= line.size()) {
        return false;
    }
    const char state = line.at(close + 2);
    return state != 'Z' && state != 'X' && state != 'x';
}

QByteArray ProcessTable::commandLine(pid_t pid)
{
    QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll();
}

QList<pid_t> ProcessTable::withCommandLineContaining(const QByteArray& needle)
{
    QList<pid_t> found;
    for (pid_t pid : allPids()) {
        if (commandLine(pid).contains(needle) && isAlive(pid)) {
            found.append(pid);
        }
    }
    return found;
}

QList<pid_t> ProcessTable::withExecutableIn(const QString& dir)
{
    QList<pid_t> found;
    const QString prefix = QDir(dir).canonicalPath() + QLatin1Char('/');
    for (pid_t pid : allPids()) {
        const QString exe = QFileInfo(QStringLiteral("/proc/%1/exe").arg(pid)).symLinkTarget();
        if (exe.startsWith(prefix) && isAlive(pid)) {
            found.append(pid);
        }
    }
    return found;
}

void ProcessTable::killAll(const QList<pid_t>& pids)
{
    for (pid_t pid : pids) {
        ::kill(pid, SIGKILL);
    }
    QDeadlineTimer deadline(1000);
    for (pid_t pid : pids) {
        while (isAlive(pid) && !deadline.hasExpired()) {
            QThread::msleep(10);
        }
    }
}
