// SPDX-License-Identifier: Apache-2.0
#include "parentlinkdriver.h"

#include "accountrunner.h"
#include "moatinstall.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>

#include <signal.h>
#include <unistd.h>

ParentLinkDriver::ParentLinkDriver(AccountRunner& runner, const QString& driver, const QStringList& driverArgs)
{
    output_ = runner.newDirectory(QStringLiteral("link")) + QStringLiteral("/sandbox-output.txt");
    const QStringList argv =
        runner.account().commandLine(QStringList{driver, QStringLiteral("--supervisor"), runner.install().supervisor(),
                                                 QStringLiteral("--output"), output_} +
                                     driverArgs);
    process_.setProcessEnvironment(runner.environment());
    process_.setWorkingDirectory(runner.workspace());
    process_.setProcessChannelMode(QProcess::SeparateChannels);
    process_.setChildProcessModifier([] { ::setpgid(0, 0); });
    process_.start(argv.first(), argv.mid(1));
}

ParentLinkDriver::~ParentLinkDriver()
{
    if (supervisorPid_ > 0) {
        ::kill(-static_cast<pid_t>(supervisorPid_), SIGKILL);
    }
    if (process_.state() != QProcess::NotRunning) {
        ::kill(-static_cast<pid_t>(process_.processId()), SIGKILL);
        process_.waitForFinished(5000);
    }
}

bool ParentLinkDriver::start(int msecs)
{
    const QJsonObject spawned = waitFor(QStringLiteral("driver"), QStringLiteral("spawned"), msecs);
    session_ = spawned.value(QStringLiteral("session")).toString();
    socketPath_ = spawned.value(QStringLiteral("socket")).toString();
    supervisorPid_ = spawned.value(QStringLiteral("pid")).toInteger();
    return !session_.isEmpty();
}

void ParentLinkDriver::send(const QString& to, const QJsonObject& message)
{
    command({{QStringLiteral("to"), to}, {QStringLiteral("msg"), message}});
}

void ParentLinkDriver::command(const QJsonObject& command)
{
    process_.write(QJsonDocument(command).toJson(QJsonDocument::Compact) + '\n');
    process_.waitForBytesWritten(2000);
}

void ParentLinkDriver::readLines()
{
    pending_ += process_.readAllStandardOutput();
    for (auto end = pending_.indexOf('\n'); end >= 0; end = pending_.indexOf('\n')) {
        const QJsonObject line = QJsonDocument::fromJson(pending_.left(end)).object();
        pending_.remove(0, end + 1);
        lines_.append(line);
        taken_.append(false);
    }
}

bool ParentLinkDriver::matches(const QJsonObject& line, const QString& from, const QString& type) const
{
    if (from == QStringLiteral("driver")) {
        return line.value(QStringLiteral("driver")).toString() == type;
    }
    return line.value(QStringLiteral("from")).toString() == from &&
           line.value(QStringLiteral("msg")).toObject().value(QStringLiteral("t")).toString() == type;
}

QJsonObject ParentLinkDriver::waitFor(const QString& from, const QString& type, int msecs)
{
    QDeadlineTimer deadline(msecs);
    for (;;) {
        readLines();
        for (qsizetype i = 0; i < lines_.size(); ++i) {
            if (!taken_[i] && matches(lines_[i], from, type)) {
                taken_[i] = true;
                return from == QStringLiteral("driver") ? lines_[i] : lines_[i].value(QStringLiteral("msg")).toObject();
            }
        }
        if (deadline.hasExpired() || process_.state() == QProcess::NotRunning) {
            readLines();
            return {};
        }
        process_.waitForReadyRead(static_cast<int>(qMin<qint64>(deadline.remainingTime(), 200)));
    }
}

bool ParentLinkDriver::saw(const QString& from, const QString& type) const
{
    for (const QJsonObject& line : lines_) {
        if (matches(line, from, type)) {
            return true;
        }
    }
    return false;
}

int ParentLinkDriver::waitForExit(int msecs)
{
    const QJsonObject exited = waitFor(QStringLiteral("driver"), QStringLiteral("exited"), msecs);
    return exited.isEmpty() ? -1 : exited.value(QStringLiteral("status")).toInt();
}

QString ParentLinkDriver::transcript() const
{
    QStringList text;
    for (const QJsonObject& line : lines_) {
        text.append(QString::fromUtf8(QJsonDocument(line).toJson(QJsonDocument::Compact)));
    }
    QFile output(output_);
    if (output.open(QIODevice::ReadOnly)) {
        text.append(QStringLiteral("--- supervisor and sandbox output:"));
        text.append(QString::fromUtf8(output.readAll()));
    }
    auto* self = const_cast<QProcess*>(&process_);
    text.append(QStringLiteral("--- driver stderr:"));
    text.append(QString::fromUtf8(self->readAllStandardError()));
    return text.join(QLatin1Char('\n'));
}
