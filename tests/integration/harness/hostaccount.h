// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

#include <sys/types.h>

#include <optional>

// A host user the tests act as, outside and inside moat: either the account
// running the tests, or (when that is root) the ordinary test user moat-test.
// Commands for an account other than the invoker run through util-linux
// setpriv, so they get exactly that uid, gid and supplementary groups.
class HostAccount
{
public:
    static constexpr const char* kTestUserName = "moat-test";

    // The account that runs the test process.
    static HostAccount invoker();
    // As root: moat-test, created with `useradd -m` when missing and reused
    // otherwise. Not root: nullopt, with the reason in *error.
    static std::optional<HostAccount> ensureTestUser(QString* error);
    static std::optional<HostAccount> lookup(const QString& name);

    QString name() const { return name_; }
    uid_t uid() const { return uid_; }
    gid_t gid() const { return gid_; }
    QString home() const { return home_; }
    bool isRoot() const { return uid_ == 0; }
    bool isInvoker() const;

    // argv that runs `argv` as this account.
    QStringList commandLine(const QStringList& argv) const;
    // Hands `path` (not following a final symlink) to this account.
    bool giveOwnership(const QString& path, QString* error = nullptr) const;

private:
    QString name_;
    uid_t uid_ = 0;
    gid_t gid_ = 0;
    QString home_;
};
