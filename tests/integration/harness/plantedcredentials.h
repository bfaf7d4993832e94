// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "hostaccount.h"

#include <QByteArray>
#include <QString>

// ~/.aws/credentials in an account's real home, the prize of the
// "read my secrets" attacks. Planted (mode 0600, owned by the account) when
// absent and removed again, with ~/.aws if it was made here; an existing file
// is used as it is and never changed.
class PlantedCredentials
{
public:
    PlantedCredentials() = default;
    ~PlantedCredentials();
    PlantedCredentials(const PlantedCredentials&) = delete;
    PlantedCredentials& operator=(const PlantedCredentials&) = delete;

    bool plant(const HostAccount& account, QString* error);
    QString path() const { return path_; }
    // Bytes only the file holds: a reader that got them read the file.
    QByteArray secret() const { return secret_; }

private:
    QString path_;
    QString createdDir_;
    bool createdFile_ = false;
    QByteArray secret_;
};
