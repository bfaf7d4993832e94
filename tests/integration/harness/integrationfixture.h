// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "accountrunner.h"
#include "moatinstall.h"

#include <QString>

#include <memory>

// What every integration test class shares: a private install of the built
// binaries and one AccountRunner per row.
//
//   row "root": the test process's own root account (only when run as root);
//   row "user": an ordinary account: moat-test when run as root, else the
//               invoking user.
//
// Call setUp() from initTestCase(), renewWorkspaces() from init() and
// tearDown() from cleanupTestCase(); fetch the row's runner with
// MOAT_FETCH_RUNNER, which skips the row (with the reason) when it cannot run.
class IntegrationFixture
{
public:
    IntegrationFixture();
    ~IntegrationFixture();

    bool setUp(QString* error);
    void renewWorkspaces();
    // Kills any process still running from the private install, removes every
    // directory made for the tests.
    void tearDown();

    // The data column "account" with the rows "root" and "user".
    static void addAccountColumn();
    static void addAccountRows(const char* suffix = nullptr);

    AccountRunner* runner(const QString& account, QString* skipReason) const;
    AccountRunner* root() const { return root_.get(); }
    AccountRunner* user() const { return user_.get(); }
    const MoatInstall& install() const { return install_; }
    static bool runningAsRoot();

private:
    MoatInstall install_;
    std::unique_ptr<AccountRunner> root_;
    std::unique_ptr<AccountRunner> user_;
    QString rootSkip_;
    QString userSkip_;
};

// QFETCHes the "account" column and binds `var` to that row's runner, or
// skips the row with the reason it cannot run here.
#define MOAT_FETCH_RUNNER(fixture, var)                               \
    QFETCH(QString, account);                                         \
    QString var##SkipReason;                                          \
    AccountRunner* var = (fixture).runner(account, &var##SkipReason); \
    if (!var)                                                         \
        QSKIP(qPrintable(var##SkipReason))
