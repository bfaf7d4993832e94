// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "integrationfixture.h"

#include <QCoreApplication>
#include <QFile>
#include <QStringList>

// A window test drives its windows in its own process, against a moatd of
// its own account: run as root, its ordinary-account rows cannot run here.
// This runs a copy of the test program as the ordinary test account with
// the named test functions (their "root" rows then skip, their "user" rows
// run). Returns what went wrong, empty when every function passed there;
// *skip says why it could not run at all.
inline QString rerunAsOrdinaryAccount(const IntegrationFixture& fixture, const QStringList& functions, QString* skip)
{
    if (!IntegrationFixture::runningAsRoot()) {
        *skip = QStringLiteral("this process is the ordinary account's run already");
        return {};
    }
    AccountRunner* user = fixture.runner(QStringLiteral("user"), skip);
    if (user == nullptr) {
        return {};
    }
    QString error;
    const QString dir = user->newDirectory(QStringLiteral("gui"), &error);
    if (dir.isEmpty()) {
        return error;
    }
    const QString copy = dir + QLatin1Char('/') + QCoreApplication::applicationName();
    if (!QFile::copy(QCoreApplication::applicationFilePath(), copy) ||
        !QFile::setPermissions(copy, QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup |
                                         QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther)) {
        return QStringLiteral("cannot copy the test program to ") + copy;
    }
    RunOptions options;
    options.timeoutMs = 600000;
    options.environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    const ProcessResult run = user->host(QStringList{copy} + functions, options);
    if (run.exitCode != 0 || !run.stdOut().contains(QLatin1String(", 0 failed,"))) {
        return run.describe();
    }
    // Every function passed at least once there (a row skipped for want of
    // root does not count).
    const QString testClass = run.stdOut().section(QLatin1String("Start testing of "), 1).section(QLatin1Char(' '), 0, 0);
    for (const QString& function : functions) {
        if (!run.stdOut().contains(QStringLiteral("PASS   : %1::%2(").arg(testClass, function))) {
            return function + QStringLiteral(" did not pass as the ordinary account:\n") + run.describe();
        }
    }
    return {};
}
