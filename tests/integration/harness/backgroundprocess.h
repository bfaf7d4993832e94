// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QProcess>
#include <QStringList>

#include <sys/types.h>

// A helper process that runs while a test acts (a server, a victim to signal).
// It gets its own process group; the destructor SIGKILLs that group and reaps
// it, so nothing outlives the test even when a QVERIFY returns early.
class BackgroundProcess
{
public:
    BackgroundProcess(const QStringList& argv, const QProcessEnvironment& environment,
                      const QString& workingDirectory);
    ~BackgroundProcess();
    BackgroundProcess(const BackgroundProcess&) = delete;
    BackgroundProcess& operator=(const BackgroundProcess&) = delete;

    bool waitForStarted(int msecs = 10000);
    // Waits until the process has written `marker` to stdout (or stderr).
    bool waitForOutput(const QByteArray& marker, int msecs = 10000);
    bool isRunning() const;
    pid_t pid() const;
    QByteArray output();
    void stop();

private:
    QProcess process_;
    QByteArray output_;
};
