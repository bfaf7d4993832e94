// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>

class AccountRunner;

// tests/tools/parent-link-driver, started as one account: it starts the real
// moat-supervisor with --parent-fd (moatd's part of the parent link), and
// speaks JSON lines with the test. Lines are kept in order; waitFor() takes
// the first one not taken yet that matches. The destructor kills the
// driver's and the supervisor's process groups.
class ParentLinkDriver {
public:
    // driverArgs: [--embedded] [--ttl D] [--ro P] ... -- COMMAND...
    ParentLinkDriver(AccountRunner& runner, const QString& driver, const QStringList& driverArgs);
    ~ParentLinkDriver();
    ParentLinkDriver(const ParentLinkDriver&) = delete;
    ParentLinkDriver& operator=(const ParentLinkDriver&) = delete;

    // Waits for the driver's "spawned" line; false when it did not come.
    bool start(int msecs = 10000);
    QString session() const { return session_; }
    QString socketPath() const { return socketPath_; }
    qint64 supervisorPid() const { return supervisorPid_; }
    QString outputFile() const { return output_; }

    // {"to":"fd"|"socket","msg":message}
    void send(const QString& to, const QJsonObject& message);
    void command(const QJsonObject& command);

    // The first untaken message from `from` ("fd" or "socket") with "t" ==
    // type, or the first untaken driver line {"driver":type} when from is
    // "driver". Empty object on timeout.
    QJsonObject waitFor(const QString& from, const QString& type, int msecs = 15000);
    // Whether such a message has arrived (taken or not).
    bool saw(const QString& from, const QString& type) const;
    // The supervisor's exit status from the driver's last line, or -1.
    int waitForExit(int msecs = 20000);
    // Everything the driver printed and the supervisor wrote, for failure messages.
    QString transcript() const;

private:
    void readLines();
    bool matches(const QJsonObject& line, const QString& from, const QString& type) const;

    QProcess process_;
    QString output_;
    QByteArray pending_;
    QList<QJsonObject> lines_;
    QList<bool> taken_;
    QString session_;
    QString socketPath_;
    qint64 supervisorPid_ = 0;
};
