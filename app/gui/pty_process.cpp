// SPDX-License-Identifier: Apache-2.0
#include "pty_process.h"

#include <QSocketNotifier>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace moat::gui {

PtyProcess::PtyProcess(QObject* parent) : QObject(parent)
{
    connect(&process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        // What is still in the pty's buffer belongs before the end.
        readMaster();
        emit finished(status == QProcess::CrashExit ? 128 + SIGKILL : code);
    });
}

PtyProcess::~PtyProcess()
{
    // Nobody hears of an end that comes from our own destruction.
    process_.disconnect(this);
    if (process_.state() != QProcess::NotRunning) {
        process_.terminate();
        if (!process_.waitForFinished(3000)) {
            process_.kill();
            process_.waitForFinished(1000);
        }
    }
    if (master_ >= 0) {
        ::close(master_);
    }
}

bool PtyProcess::start(const QString& program, const QStringList& arguments, const QProcessEnvironment& environment,
                       QString* error, const QString& directory, int rows, int columns)
{
    const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) {
        *error = tr("Cannot open a pseudo-terminal: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        if (master >= 0) {
            ::close(master);
        }
        return false;
    }
    char slaveName[128] = {};
    if (::ptsname_r(master, slaveName, sizeof slaveName) != 0) {
        *error = tr("Cannot name the pseudo-terminal: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        ::close(master);
        return false;
    }
    master_ = master;
    resize(rows, columns);
    const QByteArray slavePath(slaveName);
    process_.setProgram(program);
    process_.setArguments(arguments);
    process_.setProcessEnvironment(environment);
    process_.setWorkingDirectory(directory);
    process_.setStandardInputFile(QProcess::nullDevice());
    process_.setStandardOutputFile(QProcess::nullDevice());
    process_.setStandardErrorFile(QProcess::nullDevice());
    // Runs in the child between fork and exec: only async-signal-safe calls.
    process_.setChildProcessModifier([slavePath]() {
        ::setsid();
        const int slave = ::open(slavePath.constData(), O_RDWR);
        if (slave < 0) {
            ::_exit(127);
        }
        ::ioctl(slave, TIOCSCTTY, 0);
        ::dup2(slave, STDIN_FILENO);
        ::dup2(slave, STDOUT_FILENO);
        ::dup2(slave, STDERR_FILENO);
        if (slave > STDERR_FILENO) {
            ::close(slave);
        }
    });
    process_.start();
    if (!process_.waitForStarted(10000)) {
        *error = tr("Cannot start %1: %2").arg(program, process_.errorString());
        ::close(master_);
        master_ = -1;
        return false;
    }
    ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK);
    notifier_ = new QSocketNotifier(master_, QSocketNotifier::Read, this);
    connect(notifier_, &QSocketNotifier::activated, this, &PtyProcess::readMaster);
    return true;
}

void PtyProcess::readMaster()
{
    if (master_ < 0) {
        return;
    }
    char buffer[16384];
    for (;;) {
        const ssize_t got = ::read(master_, buffer, sizeof buffer);
        if (got > 0) {
            emit output(QByteArray(buffer, static_cast<int>(got)));
            continue;
        }
        if (got < 0 && errno == EINTR) {
            continue;
        }
        // EAGAIN: all read. EIO: every slave side closed (the program
        // ended); stop watching until it is reaped.
        if (got == 0 || (got < 0 && errno == EIO)) {
            if (notifier_ != nullptr) {
                notifier_->setEnabled(false);
            }
        }
        return;
    }
}

void PtyProcess::write(const QByteArray& bytes)
{
    if (master_ < 0) {
        return;
    }
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t wrote = ::write(master_, bytes.constData() + done, static_cast<size_t>(bytes.size() - done));
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            return;  // the terminal is full or gone; typed input is not queued
        }
        done += wrote;
    }
}

void PtyProcess::resize(int rows, int columns)
{
    if (master_ < 0) {
        return;
    }
    winsize size{};
    size.ws_row = static_cast<unsigned short>(rows);
    size.ws_col = static_cast<unsigned short>(columns);
    ::ioctl(master_, TIOCSWINSZ, &size);
}

void PtyProcess::terminate()
{
    process_.terminate();
}

bool PtyProcess::isRunning() const
{
    return process_.state() != QProcess::NotRunning;
}

qint64 PtyProcess::processId() const
{
    return process_.processId();
}

}  // namespace moat::gui
