// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>

// How AccountRunner starts one command (outside or inside the sandbox).
struct RunOptions {
    QByteArray input;  // fed to stdin when feedInput, else stdin is /dev/null
    bool feedInput = false;
    QMap<QString, QString> environment;  // on top of the clean environment
    QString workingDirectory;            // default: the runner's workspace
    int timeoutMs = 30000;
};
