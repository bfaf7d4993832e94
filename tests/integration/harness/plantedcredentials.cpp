// SPDX-License-Identifier: Apache-2.0
#include "plantedcredentials.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

PlantedCredentials::~PlantedCredentials()
{
    if (createdFile_) {
        QFile::remove(path_);
    }
    if (!createdDir_.isEmpty()) {
        QDir().rmdir(createdDir_);
    }
}

bool PlantedCredentials::plant(const HostAccount& account, QString* error)
{
    const QString dir = account.home() + QStringLiteral("/.aws");
    path_ = dir + QStringLiteral("/credentials");
    if (QFileInfo::exists(path_)) {
        QFile existing(path_);
        if (!existing.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("%1 exists but cannot be read: %2").arg(path_, existing.errorString());
            return false;
        }
        for (const QByteArray& line : existing.readAll().split('\n')) {
            if (line.trimmed().size() >= 8) {
                secret_ = line.trimmed();
                break;
            }
        }
        if (secret_.isEmpty()) {
            *error = QStringLiteral("%1 exists but holds no line to recognise it by").arg(path_);
            return false;
        }
        return true;
    }
    if (!QFileInfo::exists(dir)) {
        if (!QDir().mkpath(dir) || !account.giveOwnership(dir, error)) {
            if (error->isEmpty()) {
                *error = QStringLiteral("cannot create %1").arg(dir);
            }
            return false;
        }
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        createdDir_ = dir;
    }
    secret_ = QByteArray("aws_secret_access_key = moat-it-") +
              QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    QFile file(path_);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
        *error = QStringLiteral("cannot create %1: %2").arg(path_, file.errorString());
        return false;
    }
    createdFile_ = true;
    file.write("[default]\naws_access_key_id = AKIAMOATINTEGRATION\n" + secret_ + "\n");
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    return account.giveOwnership(path_, error);
}
