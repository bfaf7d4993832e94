// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <sys/types.h>

// The host's processes as /proc shows them to the test (which runs in the
// host's pid namespace). Used to prove that nothing outlives a session and to
// clean up whatever a failing test left behind.
class ProcessTable
{
public:
    // Alive and not a zombie.
    static bool isAlive(pid_t pid);
    // Processes whose command line (NUL-separated argv) contains `needle`.
    static QList<pid_t> withCommandLineContaining(const QByteArray& needle);
    // Processes whose executable lies in `dir` (e.g. a private moat install).
    static QList<pid_t> withExecutableIn(const QString& dir);
    static QByteArray commandLine(pid_t pid);
    // SIGKILLs each, then waits up to a second for them to go.
    static void killAll(const QList<pid_t>& pids);
};
