// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

// What one finished (or abandoned) process left behind. exitCode follows the
// shell's convention: the status, or 128+N when signal N ended the process;
// -1 when it could not be started or was killed for running too long, -2
// when the program itself (moat, not the sandboxed command) died of a signal.
struct ProcessResult {
    int exitCode = -1;
    bool started = false;
    bool timedOut = false;
    QByteArray out;
    QByteArray err;
    qint64 elapsedMs = 0;
    QString program;

    bool succeeded() const { return exitCode == 0; }
    QString stdOut() const { return QString::fromUtf8(out); }
    QString stdErr() const { return QString::fromUtf8(err); }
    // One line a failing QVERIFY2 can print: the command, status, and both streams.
    QString describe() const;
};
