// SPDX-License-Identifier: Apache-2.0
// moat-keychain.so: the OS keychain through QtKeychain (Secret Service),
// loaded by moat only when a session bus is there (secret_store.h).
#include "secret_store.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <qt6keychain/keychain.h>

#include <memory>

namespace moat::keychain {

namespace {

const QString kService = QStringLiteral("moat");
// Long enough for a person to answer an unlock prompt; a keychain that
// cannot prompt answers at once.
constexpr int kKeychainTimeoutMs = 60000;

class QtSecretStore final : public SecretStore {
public:
    QtSecretStore()
    {
        if (!QCoreApplication::instance()) {
            // QtKeychain's jobs report through Qt's event loop, which wants
            // an application object; moat has none of its own.
            static int argc = 1;
            static char name[] = "moat";
            static char* argv[] = {name, nullptr};
            application_ = std::make_unique<QCoreApplication>(argc, argv);
        }
    }

    Result<std::optional<std::string>> read(const std::string& name) override
    {
        auto* job = new QKeychain::ReadPasswordJob(kService);
        job->setKey(QString::fromStdString(name));
        QString problem;
        const std::unique_ptr<QKeychain::Job> owned = run(job, &problem);
        if (!owned) {
            return Error{problem.toStdString()};
        }
        if (job->error() == QKeychain::EntryNotFound) {
            return std::optional<std::string>();
        }
        if (job->error() != QKeychain::NoError) {
            return Error{job->errorString().toStdString()};
        }
        QByteArray bytes = job->binaryData();
        std::optional<std::string> text(std::in_place, bytes.constData(), static_cast<size_t>(bytes.size()));
        bytes.fill('\0');
        return text;
    }

    Status write(const std::string& name, const std::string& text) override
    {
        auto* job = new QKeychain::WritePasswordJob(kService);
        job->setKey(QString::fromStdString(name));
        job->setTextData(QString::fromStdString(text));
        QString problem;
        const std::unique_ptr<QKeychain::Job> owned = run(job, &problem);
        if (!owned) {
            return Error{problem.toStdString()};
        }
        if (job->error() != QKeychain::NoError) {
            return Error{job->errorString().toStdString()};
        }
        return {};
    }

    Status remove(const std::string& name) override
    {
        auto* job = new QKeychain::DeletePasswordJob(kService);
        job->setKey(QString::fromStdString(name));
        QString problem;
        const std::unique_ptr<QKeychain::Job> owned = run(job, &problem);
        if (!owned) {
            return Error{problem.toStdString()};
        }
        if (job->error() != QKeychain::NoError && job->error() != QKeychain::EntryNotFound) {
            return Error{job->errorString().toStdString()};
        }
        return {};
    }

private:
    // Runs one job to its end and hands it back to be read and deleted.
    // Not auto-deleted: a deferred delete could run in any nested event loop
    // (another keychain call, a D-Bus call in moatd) before the caller has
    // read the job's result. After a timeout the job is left to delete
    // itself whenever it does finish, and nullptr comes back.
    static std::unique_ptr<QKeychain::Job> run(QKeychain::Job* job, QString* error)
    {
        job->setAutoDelete(false);
        bool finished = false;
        QEventLoop loop;
        QObject::connect(job, &QKeychain::Job::finished, &loop, [&finished, &loop] {
            finished = true;
            loop.quit();
        });
        QTimer::singleShot(kKeychainTimeoutMs, &loop, &QEventLoop::quit);
        job->start();
        loop.exec();
        if (!finished) {
            *error = QStringLiteral("the keychain did not answer within %1 seconds").arg(kKeychainTimeoutMs / 1000);
            QObject::disconnect(job, nullptr, &loop, nullptr);
            QObject::connect(job, &QKeychain::Job::finished, job, &QObject::deleteLater);
            return nullptr;
        }
        return std::unique_ptr<QKeychain::Job>(job);
    }

    std::unique_ptr<QCoreApplication> application_;
};

}  // namespace

}  // namespace moat::keychain

extern "C" __attribute__((visibility("default"))) moat::keychain::SecretStore* moat_keychain_create_secret_store_v2()
{
    return new moat::keychain::QtSecretStore();
}
