// SPDX-License-Identifier: Apache-2.0
#include "integrationfixture.h"

#include "processtable.h"

#include <QTest>

#include <unistd.h>

IntegrationFixture::IntegrationFixture() = default;
IntegrationFixture::~IntegrationFixture()
{
    tearDown();
}

bool IntegrationFixture::runningAsRoot()
{
    return ::geteuid() == 0;
}

bool IntegrationFixture::setUp(QString* error)
{
    if (!install_.prepare(error)) {
        return false;
    }
    if (runningAsRoot()) {
        root_ = std::make_unique<AccountRunner>(HostAccount::invoker(), install_);
        if (!root_->prepare(error)) {
            return false;
        }
        QString why;
        auto testUser = HostAccount::ensureTestUser(&why);
        if (testUser) {
            user_ = std::make_unique<AccountRunner>(*testUser, install_);
            if (!user_->prepare(error)) {
                return false;
            }
        } else {
            userSkip_ = QStringLiteral("no ordinary test user: ") + why;
        }
    } else {
        rootSkip_ = QStringLiteral("the root row needs the suite to run as root (it runs moat as root and checks "
                                   "what root's agent gets)");
        user_ = std::make_unique<AccountRunner>(HostAccount::invoker(), install_);
        if (!user_->prepare(error)) {
            return false;
        }
    }
    return true;
}

void IntegrationFixture::renewWorkspaces()
{
    for (auto* runner : {root_.get(), user_.get()}) {
        if (runner) {
            runner->renewWorkspace();
        }
    }
}

void IntegrationFixture::tearDown()
{
    if (!install_.dir().isEmpty()) {
        ProcessTable::killAll(ProcessTable::withExecutableIn(install_.dir()));
        ProcessTable::killAll(ProcessTable::withCommandLineContaining(install_.dir().toUtf8()));
    }
    root_.reset();
    user_.reset();
}

void IntegrationFixture::addAccountColumn()
{
    QTest::addColumn<QString>("account");
}

void IntegrationFixture::addAccountRows(const char* suffix)
{
    for (const char* account : {"root", "user"}) {
        const QByteArray name = suffix ? QByteArray(account) + ':' + suffix : QByteArray(account);
        QTest::newRow(name.constData()) << QString::fromLatin1(account);
    }
}

AccountRunner* IntegrationFixture::runner(const QString& account, QString* skipReason) const
{
    if (account == QLatin1String("root")) {
        if (!root_) {
            *skipReason = rootSkip_;
        }
        return root_.get();
    }
    if (!user_) {
        *skipReason = userSkip_;
    }
    return user_.get();
}
