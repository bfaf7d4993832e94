// SPDX-License-Identifier: Apache-2.0
#include "hostaccount.h"

#include <QProcess>

#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

std::optional<HostAccount> HostAccount::lookup(const QString& name)
{
    const passwd* entry = ::getpwnam(name.toLocal8Bit().constData());
    if (!entry) {
        return std::nullopt;
    }
    HostAccount account;
    account.name_ = QString::fromLocal8Bit(entry->pw_name);
    account.uid_ = entry->pw_uid;
    account.gid_ = entry->pw_gid;
    account.home_ = QString::fromLocal8Bit(entry->pw_dir);
    return account;
}

HostAccount HostAccount::invoker()
{
    HostAccount account;
    account.uid_ = ::getuid();
    account.gid_ = ::getgid();
    if (const passwd* entry = ::getpwuid(account.uid_)) {
        account.name_ = QString::fromLocal8Bit(entry->pw_name);
        account.home_ = QString::fromLocal8Bit(entry->pw_dir);
    } else {
        account.name_ = QString::number(account.uid_);
        account.home_ = qEnvironmentVariable("HOME", QStringLiteral("/"));
    }
    return account;
}

std::optional<HostAccount> HostAccount::ensureTestUser(QString* error)
{
    if (::geteuid() != 0) {
        if (error) {
            *error = QStringLiteral("creating the test user %1 needs root").arg(kTestUserName);
        }
        return std::nullopt;
    }
    if (auto existing = lookup(QString::fromLatin1(kTestUserName))) {
        return existing;
    }
    QProcess useradd;
    useradd.setProcessChannelMode(QProcess::MergedChannels);
    useradd.start(QStringLiteral("useradd"),
                  {QStringLiteral("-m"), QStringLiteral("-s"), QStringLiteral("/bin/bash"),
                   QString::fromLatin1(kTestUserName)});
    if (!useradd.waitForFinished(30000) || useradd.exitStatus() != QProcess::NormalExit ||
        useradd.exitCode() != 0) {
        if (error) {
            *error = QStringLiteral("useradd -m %1 failed: %2")
                         .arg(kTestUserName, QString::fromUtf8(useradd.readAll()) + useradd.errorString());
        }
        return std::nullopt;
    }
    auto created = lookup(QString::fromLatin1(kTestUserName));
    if (!created && error) {
        *error = QStringLiteral("useradd succeeded but %1 is not in the passwd database").arg(kTestUserName);
    }
    return created;
}

bool HostAccount::isInvoker() const
{
    return uid_ == ::getuid();
}

QStringList HostAccount::commandLine(const QStringList& argv) const
{
    if (isInvoker()) {
        return argv;
    }
    QStringList wrapped{QStringLiteral("/usr/bin/setpriv"), QStringLiteral("--reuid=%1").arg(uid_),
                        QStringLiteral("--regid=%1").arg(gid_), QStringLiteral("--init-groups"),
                        QStringLiteral("--")};
    return wrapped + argv;
}

bool HostAccount::giveOwnership(const QString& path, QString* error) const
{
    if (::lchown(path.toLocal8Bit().constData(), uid_, gid_) == 0) {
        return true;
    }
    if (error) {
        *error = QStringLiteral("chown %1 to %2: %3").arg(path, name_, QString::fromLocal8Bit(std::strerror(errno)));
    }
    return false;
}
