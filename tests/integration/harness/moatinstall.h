// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QTemporaryDir>

#include <memory>

// A private, world-readable copy of the built binaries and the test tools.
//
// The build tree may sit where the test user cannot reach it (under /root), so
// every run uses this copy: 0755 directory, 0755 programs. A private copy also
// lets the tests tell their own moat-supervisor processes from anyone else's
// by /proc/PID/exe. The directory lives until the object dies.
class MoatInstall
{
public:
    MoatInstall();
    ~MoatInstall();

    // Copies moat, moat-supervisor, moat-keychain.so, moat-dbus.so, deny-syscalls and the python tools.
    bool prepare(QString* error);

    QString dir() const;
    QString moat() const { return dir() + QStringLiteral("/moat"); }
    QString supervisor() const { return dir() + QStringLiteral("/moat-supervisor"); }
    // A program or script from tests/tools, by file name.
    QString tool(const QString& name) const { return dir() + QLatin1Char('/') + name; }

private:
    std::unique_ptr<QTemporaryDir> dir_;
};
