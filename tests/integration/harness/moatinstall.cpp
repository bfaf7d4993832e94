// SPDX-License-Identifier: Apache-2.0
#include "moatinstall.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace {

bool copyExecutable(const QString& from, const QString& to, QString* error)
{
    QFile::remove(to);
    if (!QFile::copy(from, to)) {
        *error = QStringLiteral("cannot copy %1 to %2").arg(from, to);
        return false;
    }
    const auto mode = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup |
                      QFile::ReadOther | QFile::ExeOther;
    if (!QFile::setPermissions(to, mode)) {
        *error = QStringLiteral("cannot chmod 0755 %1").arg(to);
        return false;
    }
    return true;
}

}  // namespace

MoatInstall::MoatInstall() = default;
MoatInstall::~MoatInstall() = default;

QString MoatInstall::dir() const
{
    return dir_ ? dir_->path() : QString();
}

bool MoatInstall::prepare(QString* error)
{
    dir_ = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/moat-it-bin-XXXXXX"));
    if (!dir_->isValid()) {
        *error = QStringLiteral("cannot create a temporary directory: %1").arg(dir_->errorString());
        return false;
    }
    const auto dirMode = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                         QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther;
    if (!QFile::setPermissions(dir_->path(), dirMode)) {
        *error = QStringLiteral("cannot chmod 0755 %1").arg(dir_->path());
        return false;
    }
    const QString bin = QStringLiteral(MOAT_BIN_DIR);
    // moat loads moat-keychain.so from beside itself when a session bus is there.
    for (const char* name : {"moat", "moat-supervisor", "moat-keychain.so", "moat-dbus.so", "moat-probe"}) {
        if (!copyExecutable(bin + QLatin1Char('/') + QLatin1String(name), tool(QLatin1String(name)), error)) {
            return false;
        }
    }
    if (!copyExecutable(QStringLiteral(MOAT_DENY_SYSCALLS), tool(QStringLiteral("deny-syscalls")), error) ||
        !copyExecutable(QStringLiteral(MOAT_FOREIGN_ABI_SYSCALL), tool(QStringLiteral("foreign-abi-syscall")),
                        error)) {
        return false;
    }
    const QDir tools(QStringLiteral(MOAT_TOOLS_SOURCE_DIR));
    for (const QFileInfo& script : tools.entryInfoList({QStringLiteral("*.py")}, QDir::Files)) {
        if (!copyExecutable(script.absoluteFilePath(), tool(script.fileName()), error)) {
            return false;
        }
    }
    return true;
}
