// SPDX-License-Identifier: Apache-2.0
#include "moatd_connection.h"

#include "manager1_interface.h"

#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>
#include <QDBusUnixFileDescriptor>
#include <QTimer>

namespace moat::gui {

namespace {

const QString kService = QStringLiteral("org.moat.Manager1");
const QString kPath = QStringLiteral("/org/moat/Manager1");
// moatd may be activated by a call, and may wait on the keychain (which may
// ask a person to unlock it) before it answers.
constexpr int kCallTimeoutMs = 120000;
constexpr int kRetryMs = 2000;

// The D-Bus errors that mean "nobody answered", as opposed to moatd refusing.
bool isAbsence(const QString& errorName)
{
    return errorName == QLatin1String("org.freedesktop.DBus.Error.ServiceUnknown") ||
           errorName == QLatin1String("org.freedesktop.DBus.Error.NameHasNoOwner") ||
           errorName == QLatin1String("org.freedesktop.DBus.Error.NoReply") ||
           errorName == QLatin1String("org.freedesktop.DBus.Error.Spawn.Failed") ||
           errorName == QLatin1String("org.freedesktop.DBus.Error.Spawn.ChildExited") ||
           errorName == QLatin1String("org.freedesktop.DBus.Error.Disconnected");
}

}  // namespace

MoatdConnection::MoatdConnection(const QDBusConnection& bus, QObject* parent)
    : QObject(parent), bus_(bus), proxy_(std::make_unique<OrgMoatManager1Interface>(kService, kPath, bus))
{
    proxy_->setTimeout(kCallTimeoutMs);
    connect(proxy_.get(), &OrgMoatManager1Interface::SessionStarted, this, &MoatdConnection::sessionStarted);
    connect(proxy_.get(), &OrgMoatManager1Interface::SessionEnded, this, &MoatdConnection::sessionEnded);
    connect(proxy_.get(), &OrgMoatManager1Interface::EventsAppended, this,
            [this](const QString& id, qulonglong lastSeq, uint count) { emit eventsAppended(id, lastSeq, count); });
    connect(proxy_.get(), &OrgMoatManager1Interface::ApprovalRequested, this, &MoatdConnection::approvalRequested);
    connect(proxy_.get(), &OrgMoatManager1Interface::ApprovalDecided, this, &MoatdConnection::approvalDecided);

    watcher_ = new QDBusServiceWatcher(kService, bus_, QDBusServiceWatcher::WatchForOwnerChange, this);
    connect(watcher_, &QDBusServiceWatcher::serviceOwnerChanged, this,
            [this](const QString&, const QString&, const QString& newOwner) {
                if (newOwner.isEmpty()) {
                    onOwnerLost();
                } else if (!linked_) {
                    connectNow();
                }
            });
    retry_ = new QTimer(this);
    retry_->setInterval(kRetryMs);
    connect(retry_, &QTimer::timeout, this, &MoatdConnection::connectNow);
}

MoatdConnection::~MoatdConnection() = default;

QDBusConnection MoatdConnection::busAt(const QString& address)
{
    if (address.isEmpty()) {
        return QDBusConnection::sessionBus();
    }
    return QDBusConnection::connectToBus(address, QStringLiteral("moat-manager:") + address);
}

void MoatdConnection::connectNow()
{
    if (!bus_.isConnected()) {
        setLinked(false, tr("There is no session bus to reach moatd on: %1. Log in to a desktop session, or set "
                            "DBUS_SESSION_BUS_ADDRESS.")
                             .arg(bus_.lastError().message()));
        return;
    }
    // A call activates moatd when it is installed but not running.
    listSessions(false, [](const MoatdAnswer&) {});
}

void MoatdConnection::onOwnerLost()
{
    setLinked(false, tr("moatd stopped. Reconnecting; it is started again on the next call."));
}

void MoatdConnection::setLinked(bool linked, const QString& message)
{
    if (linked) {
        retry_->stop();
    } else if (!retry_->isActive()) {
        retry_->start();
    }
    if (linked == linked_ && message == linkMessage_) {
        return;
    }
    linked_ = linked;
    linkMessage_ = message;
    emit linkChanged(linked, message);
}

void MoatdConnection::watch(const QDBusPendingCall& call, Reply reply, bool hasValue)
{
    auto* watcher = new QDBusPendingCallWatcher(call, this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, reply = std::move(reply), hasValue](QDBusPendingCallWatcher* finished) {
                finished->deleteLater();
                MoatdAnswer answer;
                if (finished->isError()) {
                    answer.errorName = finished->error().name();
                    answer.errorMessage = finished->error().message();
                    if (isAbsence(answer.errorName)) {
                        setLinked(false, tr("moatd is not answering (%1). Retrying every few seconds.")
                                             .arg(answer.errorMessage));
                    }
                } else {
                    answer.ok = true;
                    if (hasValue) {
                        answer.value = QDBusPendingReply<QString>(*finished).value();
                    }
                    setLinked(true, everLinked_ ? tr("Reconnected to moatd.") : tr("Connected to moatd."));
                    everLinked_ = true;
                }
                reply(answer);
            });
}

void MoatdConnection::startSession(const QString& specJson, int stdinFd, int stdoutFd, int stderrFd, int clientFd,
                                   Reply reply)
{
    watch(proxy_->StartSession(specJson, QDBusUnixFileDescriptor(stdinFd), QDBusUnixFileDescriptor(stdoutFd),
                               QDBusUnixFileDescriptor(stderrFd), QDBusUnixFileDescriptor(clientFd)),
          std::move(reply), true);
}

void MoatdConnection::listSessions(bool all, Reply reply)
{
    watch(proxy_->ListSessions(all), std::move(reply), true);
}

void MoatdConnection::stopSession(const QString& id, Reply reply)
{
    watch(proxy_->StopSession(id), std::move(reply), false);
}

void MoatdConnection::renewSession(const QString& id, const QString& ttl, Reply reply)
{
    watch(proxy_->RenewSession(id, ttl), std::move(reply), true);
}

void MoatdConnection::readTimeline(const QString& id, quint64 afterSeq, uint maxEvents, Reply reply)
{
    watch(proxy_->ReadTimeline(id, afterSeq, maxEvents), std::move(reply), true);
}

MoatdAnswer MoatdConnection::readTimelineNow(const QString& id, quint64 afterSeq, uint maxEvents, int timeoutMs)
{
    const int saved = proxy_->timeout();
    proxy_->setTimeout(timeoutMs);
    QDBusPendingReply<QString> pending = proxy_->ReadTimeline(id, afterSeq, maxEvents);
    proxy_->setTimeout(saved);
    pending.waitForFinished();
    MoatdAnswer answer;
    if (pending.isError()) {
        answer.errorName = pending.error().name();
        answer.errorMessage = pending.error().message();
    } else {
        answer.ok = true;
        answer.value = pending.value();
    }
    return answer;
}

void MoatdConnection::listApprovals(Reply reply)
{
    watch(proxy_->ListApprovals(), std::move(reply), true);
}

void MoatdConnection::answerApproval(const QString& requestId, bool approve, Reply reply)
{
    watch(proxy_->AnswerApproval(requestId, approve, clientName()), std::move(reply), true);
}

void MoatdConnection::answerApprovalScoped(const QString& requestId, bool approve, const QString& scope, Reply reply)
{
    watch(proxy_->AnswerApprovalScoped(requestId, approve, scope, clientName()), std::move(reply), true);
}

void MoatdConnection::setSecret(const QString& name, const QString& value, const QStringList& hosts,
                                const QStringList& headers, Reply reply)
{
    watch(proxy_->SetSecret(name, value, hosts, headers), std::move(reply), false);
}

void MoatdConnection::listSecrets(Reply reply)
{
    watch(proxy_->ListSecrets(), std::move(reply), true);
}

void MoatdConnection::removeSecret(const QString& name, Reply reply)
{
    watch(proxy_->RemoveSecret(name), std::move(reply), false);
}

void MoatdConnection::getPolicy(Reply reply)
{
    watch(proxy_->GetPolicy(), std::move(reply), true);
}

void MoatdConnection::setPolicy(const QString& policyJson, Reply reply)
{
    watch(proxy_->SetPolicy(policyJson), std::move(reply), false);
}

}  // namespace moat::gui
