// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "processresult.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QStringList>

// Runs one program to completion with separate stdout and stderr. The child
// leads its own process group, so a timeout kills everything it started.
class Subprocess
{
public:
    struct Request {
        QStringList argv;
        QProcessEnvironment environment;
        QString workingDirectory;
        // Written to stdin, which is then closed; with no input stdin is /dev/null.
        QByteArray input;
        bool feedInput = false;
        int timeoutMs = 30000;
    };

    static ProcessResult run(const Request& request);
};
