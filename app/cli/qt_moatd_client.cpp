// SPDX-License-Identifier: Apache-2.0
// moat-dbus.so: moat's client of moatd over QtDBus, through the proxy
// generated from helper/org.moat.Manager1.xml; loaded by moat only when a
// session bus is there (moatd_client.h).
#include "moatd_client.h"

#include "manager1_interface.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusUnixFileDescriptor>

#include <cstdlib>

namespace moat::cli {

namespace {

const QString kService = QStringLiteral("org.moat.Manager1");
const QString kPath = QStringLiteral("/org/moat/Manager1");
const QString kConnectionName = QStringLiteral("moat-cli");
// moatd may be activated for this call, and may ask the keychain (which
// may ask a person to unlock it) before it answers.
constexpr int kStartTimeoutMs = 120000;
constexpr int kCallTimeoutMs = 30000;

template <typename Reply>
MoatdReply toReply(Reply reply)
{
    reply.waitForFinished();
    if (reply.isError()) {
        return MoatdReply::failure(reply.error().name().toStdString(), reply.error().message().toStdString());
    }
    if constexpr (Reply::Count > 0) {
        return MoatdReply::success(reply.value().toStdString());
    } else {
        return MoatdReply::success({});
    }
}

class QtMoatdClient final : public MoatdClient {
public:
    QtMoatdClient(std::unique_ptr<QCoreApplication> application, const QDBusConnection& bus)
        : application_(std::move(application)), proxy_(kService, kPath, bus)
    {
        proxy_.setTimeout(kCallTimeoutMs);
    }

    ~QtMoatdClient() override { QDBusConnection::disconnectFromBus(kConnectionName); }

    MoatdReply startSession(const std::string& specJson, int stdinFd, int stdoutFd, int stderrFd,
                            int clientFd) override
    {
        proxy_.setTimeout(kStartTimeoutMs);
        auto reply = toReply(proxy_.StartSession(QString::fromStdString(specJson), QDBusUnixFileDescriptor(stdinFd),
                                                 QDBusUnixFileDescriptor(stdoutFd), QDBusUnixFileDescriptor(stderrFd),
                                                 QDBusUnixFileDescriptor(clientFd)));
        proxy_.setTimeout(kCallTimeoutMs);
        return reply;
    }
    MoatdReply listSessions(bool all) override { return toReply(proxy_.ListSessions(all)); }
    MoatdReply stopSession(const std::string& id) override
    {
        return toReply(proxy_.StopSession(QString::fromStdString(id)));
    }
    MoatdReply renewSession(const std::string& id, const std::string& ttl) override
    {
        return toReply(proxy_.RenewSession(QString::fromStdString(id), QString::fromStdString(ttl)));
    }
    MoatdReply listApprovals() override { return toReply(proxy_.ListApprovals()); }
    MoatdReply answerApproval(const std::string& requestId, bool approve, const std::string& client) override
    {
        return toReply(
            proxy_.AnswerApproval(QString::fromStdString(requestId), approve, QString::fromStdString(client)));
    }

    MoatdReply setSecret(const std::string& name, const std::string& value, const std::vector<std::string>& hosts,
                         const std::vector<std::string>& headers) override
    {
        // moatd may have to wait for the keychain, which may ask a person.
        proxy_.setTimeout(kStartTimeoutMs);
        QString text = QString::fromStdString(value);
        auto reply = toReply(proxy_.SetSecret(QString::fromStdString(name), text, toList(hosts), toList(headers)));
        text.fill(QChar(0));
        proxy_.setTimeout(kCallTimeoutMs);
        return reply;
    }
    MoatdReply listSecrets() override { return toReply(proxy_.ListSecrets()); }
    MoatdReply removeSecret(const std::string& name) override
    {
        proxy_.setTimeout(kStartTimeoutMs);
        auto reply = toReply(proxy_.RemoveSecret(QString::fromStdString(name)));
        proxy_.setTimeout(kCallTimeoutMs);
        return reply;
    }

private:
    static QStringList toList(const std::vector<std::string>& items)
    {
        QStringList list;
        for (const auto& item : items) {
            list.append(QString::fromStdString(item));
        }
        return list;
    }

    std::unique_ptr<QCoreApplication> application_;
    OrgMoatManager1Interface proxy_;
};

MoatdClient* connectMoatd(const std::string& address, std::string* problem)
{
    // libdbus aborts the process on its own internal warnings unless told
    // otherwise, and QtDBus trips one when a bus accepts the connection but
    // never completes it: a broken bus must not kill `moat run`.
    ::setenv("DBUS_FATAL_WARNINGS", "0", 0);
    std::unique_ptr<QCoreApplication> application;
    if (!QCoreApplication::instance()) {
        // QtDBus wants an application object; moat has none of its own.
        static int argc = 1;
        static char name[] = "moat";
        static char* argv[] = {name, nullptr};
        application = std::make_unique<QCoreApplication>(argc, argv);
    }
    QDBusConnection bus = QDBusConnection::connectToBus(QString::fromStdString(address), kConnectionName);
    if (!bus.isConnected()) {
        // A stale address, a bus that went away: no bus, so no moatd.
        QDBusConnection::disconnectFromBus(kConnectionName);
        return nullptr;
    }
    QDBusConnectionInterface* daemon = bus.interface();
    const auto owned = daemon->isServiceRegistered(kService);
    if (owned.error().isValid()) {
        *problem = "the session bus refused to say whether moatd runs (" + owned.error().name().toStdString() +
                   ": " + owned.error().message().toStdString() + ")";
        return nullptr;
    }
    if (!owned.value()) {
        const auto activatable = daemon->activatableServiceNames();
        if (activatable.error().isValid()) {
            *problem = "the session bus refused to list what it can start (" +
                       activatable.error().name().toStdString() + ": " + activatable.error().message().toStdString() +
                       ")";
            return nullptr;
        }
        if (!activatable.value().contains(kService)) {
            QDBusConnection::disconnectFromBus(kConnectionName);
            return nullptr;
        }
    }
    return new QtMoatdClient(std::move(application), bus);
}

}  // namespace

}  // namespace moat::cli

extern "C" __attribute__((visibility("default"))) moat::cli::MoatdClient* moat_connect_moatd_v2(
    const std::string& address, std::string* problem)
{
    return moat::cli::connectMoatd(address, problem);
}
