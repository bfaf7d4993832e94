// SPDX-License-Identifier: Apache-2.0
#include "backgroundprocess.h"

#include "processtable.h"

#include <QDeadlineTimer>

#include <signal.h>
#include <unistd.h>

BackgroundProcess::BackgroundProcess(const QStringList& argv, const QProcessEnvironment& environment,
                                     const QString& workingDirectory)
{
    process_.setProcessEnvironment(environment);
    process_.setWorkingDirectory(workingDirectory);
    process_.setProcessChannelMode(QProcess::MergedChannels);
    process_.setStandardInputFile(QProcess::nullDevice());
    process_.setChildProcessModifier([] { ::setpgid(0, 0); });
    process_.start(argv.first(), argv.mid(1));
}

BackgroundProcess::~BackgroundProcess()
{
    stop();
}

bool BackgroundProcess::waitForStarted(int msecs)
{
    return process_.waitForStarted(msecs);
}

bool BackgroundProcess::waitForOutput(const QByteArray& marker, int msecs)
{
    QDeadlineTimer deadline(msecs);
    while (!deadline.hasExpired()) {
        output_ += process_.readAll();
        if (output_.contains(marker)) {
            return true;
        }
        if (process_.state() == QProcess::NotRunning) {
            output_ += process_.readAll();
            return output_.contains(marker);
        }
        process_.waitForReadyRead(static_cast<int>(qMin<qint64>(deadline.remainingTime(), 200)));
    }
    return false;
}

bool BackgroundProcess::isRunning() const
{
    return process_.state() == QProcess::Running && ProcessTable::isAlive(pid());
}

pid_t BackgroundProcess::pid() const
{
    return static_cast<pid_t>(process_.processId());
}

QByteArray BackgroundProcess::output()
{
    output_ += process_.readAll();
    return output_;
}

void BackgroundProcess::stop()
{
    if (process_.state() == QProcess::NotRunning) {
        return;
    }
    const pid_t group = pid();
    if (group > 0) {
        ::kill(-group, SIGKILL);
    }
    process_.kill();
    process_.waitForFinished(5000);
}
