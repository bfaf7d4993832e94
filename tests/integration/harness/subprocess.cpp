// SPDX-License-Identifier: Apache-2.0
#include "subprocess.h"

#include <QElapsedTimer>
#include <QProcess>

#include <signal.h>
#include <unistd.h>

ProcessResult Subprocess::run(const Request& request)
{
    ProcessResult result;
    result.program = request.argv.join(QLatin1Char(' '));
    QProcess process;
    process.setProcessEnvironment(request.environment);
    process.setWorkingDirectory(request.workingDirectory);
    if (!request.feedInput) {
        process.setStandardInputFile(QProcess::nullDevice());
    }
    process.setChildProcessModifier([] { ::setpgid(0, 0); });
    QElapsedTimer clock;
    clock.start();
    process.start(request.argv.first(), request.argv.mid(1));
    if (!process.waitForStarted(10000)) {
        result.err = process.errorString().toUtf8();
        result.elapsedMs = clock.elapsed();
        return result;
    }
    result.started = true;
    const pid_t group = static_cast<pid_t>(process.processId());
    if (request.feedInput) {
        process.write(request.input);
        process.closeWriteChannel();
    }
    if (!process.waitForFinished(request.timeoutMs)) {
        result.timedOut = true;
        ::kill(-group, SIGKILL);
        process.kill();
        process.waitForFinished(5000);
    }
    result.elapsedMs = clock.elapsed();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    if (result.timedOut) {
        result.exitCode = -1;
    } else if (process.exitStatus() == QProcess::CrashExit) {
        // moat itself died of a signal: never a status the tests expect.
        result.exitCode = -2;
        result.err += "\n[the process was killed by a signal]";
    } else {
        result.exitCode = process.exitCode();
    }
    return result;
}
