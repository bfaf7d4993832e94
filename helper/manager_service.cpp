// SPDX-License-Identifier: Apache-2.0
#include "manager_service.h"
#include "json_key.h"

#include <cerrno>
#include <fcntl.h>

#include <QDBusConnection>
#include <QDBusMessage>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

#include "approval_broker.h"
#include "audit/event_line.h"
#include "caller_check.h"
#include "dbus_errors.h"
#include "policy/duration.h"
#include "policy/policy_document.h"
#include "record_key_store.h"
#include "secret_vault.h"
#include "session_registry.h"

namespace moat::helper {

namespace {

// ReadTimeline's answer stays well under the bus's message limit.
constexpr uint kMaxTimelineEvents = 10000;
constexpr qsizetype kMaxTimelineBytes = 16 << 20;
// SetPolicy's argument.
constexpr qsizetype kMaxPolicyJson = 64 * 1024;

QString compact(const QJsonArray& array)
{
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

QJsonObject byOf(const Caller& caller)
{
    return {{key("uid"), static_cast<qint64>(caller.uid)}, {key("user"), caller.user}, {key("client"), caller.client}};
}

UniqueFd duplicate(const QDBusUnixFileDescriptor& fd)
{
    return UniqueFd(fd.isValid() ? ::fcntl(fd.fileDescriptor(), F_DUPFD_CLOEXEC, 3) : -1);
}

}  // namespace

ManagerService::ManagerService(MoatPaths paths, QObject* parent)
    : QObject(parent),
      paths_(std::move(paths)),
      keys_(std::make_unique<keychain::RecordKeyStore>(paths_)),
      sessions_(std::make_unique<SessionRegistry>(paths_, *keys_)),
      approvals_(std::make_unique<ApprovalBroker>(*sessions_, paths_.configDir)),
      secrets_(std::make_unique<SecretVault>(QString::fromStdString(paths_.configDir)))
{
    connect(sessions_.get(), &SessionRegistry::sessionStarted, this, &ManagerService::SessionStarted);
    connect(sessions_.get(), &SessionRegistry::sessionEnded, this,
            [this](const QString& id, const QString& state, int exitCode) {
                approvals_->onSessionEnded(id);
                emit SessionEnded(id, state, exitCode);
            });
    connect(sessions_.get(), &SessionRegistry::eventsAppended, this, &ManagerService::EventsAppended);
    connect(sessions_.get(), &SessionRegistry::requestReceived, approvals_.get(), &ApprovalBroker::onRequest);
    connect(approvals_.get(), &ApprovalBroker::approvalRequested, this, &ManagerService::ApprovalRequested);
    connect(approvals_.get(), &ApprovalBroker::approvalRequested, this, [this](const QString&, const QString& json) {
        const QJsonObject request = QJsonDocument::fromJson(json.toUtf8()).object();
        sessions_->tellClientOfApproval(request.value(QStringLiteral("session")).toString(), request);
    });
    connect(approvals_.get(), &ApprovalBroker::approvalDecided, this, &ManagerService::ApprovalDecided);
}

ManagerService::~ManagerService() = default;

void ManagerService::reattach()
{
    sessions_->reattachAll();
}

QString ManagerService::StartSession(const QString& spec_json, const QDBusUnixFileDescriptor& stdin_fd,
                                     const QDBusUnixFileDescriptor& stdout_fd, const QDBusUnixFileDescriptor& stderr_fd,
                                     const QDBusUnixFileDescriptor& client)
{
    if (!checkCaller(*this)) {
        return {};
    }
    SessionRegistry::Stdio stdio{duplicate(stdin_fd), duplicate(stdout_fd), duplicate(stderr_fd)};
    UniqueFd link = duplicate(client);
    if (!stdio.in || !stdio.out || !stdio.err || !link) {
        sendErrorReply(kErrorInvalidArgument,
                       QStringLiteral("StartSession needs four valid file descriptors: stdin, stdout, stderr and "
                                      "the client end of a socketpair"));
        return {};
    }
    setDelayedReply(true);
    sessions_->start(spec_json.toStdString(), std::move(stdio), std::move(link),
                     [request = message(), bus = connection()](const Result<QString>& started) {
                         QDBusConnection(bus).send(
                             started ? request.createReply(started.value())
                                     : request.createErrorReply(kErrorSetupFailed,
                                                                QString::fromStdString(started.error().message())));
                     });
    return {};
}

QString ManagerService::ListSessions(bool all)
{
    if (!checkCaller(*this)) {
        return {};
    }
    return compact(sessions_->list(all));
}

void ManagerService::StopSession(const QString& id)
{
    const auto caller = checkCaller(*this);
    if (!caller) {
        return;
    }
    QString error;
    const auto session = sessions_->resolve(id, &error);
    if (!session) {
        sendErrorReply(kErrorNoSuchSession, error);
        return;
    }
    sessions_->stop(*session, byOf(*caller));
}

QString ManagerService::RenewSession(const QString& id, const QString& ttl)
{
    const auto caller = checkCaller(*this);
    if (!caller) {
        return {};
    }
    if (!ttl.isEmpty()) {
        if (auto parsed = Duration::parse(ttl.toStdString()); !parsed) {
            sendErrorReply(kErrorInvalidArgument,
                           QStringLiteral("--ttl: ") + QString::fromStdString(parsed.error().message()));
            return {};
        }
    }
    QString error;
    const auto session = sessions_->resolve(id, &error);
    if (!session) {
        sendErrorReply(kErrorNoSuchSession, error);
        return {};
    }
    setDelayedReply(true);
    sessions_->renew(*session, ttl, byOf(*caller),
                     [request = message(), bus = connection()](const QString& expires, const QString& why) {
                         QDBusConnection(bus).send(why.isEmpty() ? request.createReply(expires)
                                                                 : request.createErrorReply(kErrorNotRunning, why));
                     });
    return {};
}

QString ManagerService::resolveAny(const QString& idPrefixOrName)
{
    QString error;
    if (const auto running = sessions_->resolve(idPrefixOrName, &error)) {
        return *running;
    }
    QStringList matches;
    const auto& records = sessions_->records();
    for (const QString& id : records.sessionIds()) {
        if (id == idPrefixOrName) {
            return id;
        }
        if (id.startsWith(idPrefixOrName) || records.spec(id).value(key("name")).toString() == idPrefixOrName) {
            matches.append(id);
        }
    }
    if (matches.size() == 1 && !idPrefixOrName.isEmpty()) {
        return matches.front();
    }
    sendErrorReply(
        kErrorNoSuchSession,
        matches.isEmpty()
            ? QStringLiteral("no session has the id, id prefix or name '%1'; moat ps --all lists them")
                  .arg(idPrefixOrName)
            : QStringLiteral("'%1' names %2 sessions; give more of the id").arg(idPrefixOrName).arg(matches.size()));
    return {};
}

QString ManagerService::ReadTimeline(const QString& id, qulonglong after_seq, uint max_events)
{
    if (!checkCaller(*this)) {
        return {};
    }
    const QString session = resolveAny(id);
    if (session.isEmpty()) {
        return {};
    }
    const uint limit = max_events == 0 ? kMaxTimelineEvents : std::min(max_events, kMaxTimelineEvents);
    // Seeks near after_seq (TimelineIndex) instead of reading from line 1.
    const TimelineIndex::Page page = timelineIndex_.read(
        sessions_->records().directory(session) + QStringLiteral("/events.jsonl"), after_seq, limit, kMaxTimelineBytes);
    return QString::fromUtf8(page.lines);  // empty when nothing is recorded yet
}

QString ManagerService::ListApprovals()
{
    if (!checkCaller(*this)) {
        return {};
    }
    return compact(approvals_->pending());
}

QString ManagerService::AnswerApproval(const QString& request_id, bool approve, const QString& client)
{
    return AnswerApprovalScoped(request_id, approve, key("once"), client);
}

QString ManagerService::AnswerApprovalScoped(const QString& request_id, bool approve, const QString& scope,
                                             const QString& client)
{
    const auto caller = checkCaller(*this);
    if (!caller) {
        return {};
    }
    static const QStringList kClients = {key("cli"), key("gui"), key("terminal")};
    if (!kClients.contains(client)) {
        sendErrorReply(kErrorInvalidArgument,
                       QStringLiteral("client must be cli, gui or terminal (it goes into the record)"));
        return {};
    }
    static const QHash<QString, ApprovalBroker::Scope> kScopes = {
        {key("once"), ApprovalBroker::Scope::Once},
        {key("session"), ApprovalBroker::Scope::Session},
        {key("profile"), ApprovalBroker::Scope::Profile}};
    if (!kScopes.contains(scope)) {
        sendErrorReply(kErrorInvalidArgument, QStringLiteral("scope must be once, session or profile"));
        return {};
    }
    auto decided = approvals_->answer(request_id, approve, *caller, client, kScopes.value(scope));
    if (!decided) {
        sendErrorReply(decided.error().errnum == EINVAL ? kErrorInvalidArgument : kErrorNoSuchRequest,
                       QString::fromStdString(decided.error().what));
        return {};
    }
    return QString::fromUtf8(QJsonDocument(decided.value()).toJson(QJsonDocument::Compact));
}

void ManagerService::SetSecret(const QString& name, const QString& value, const QStringList& hosts,
                               const QStringList& headers)
{
    if (!checkCaller(*this)) {
        return;
    }
    setDelayedReply(true);
    secrets_->set(name, value, hosts, headers,
                  [request = message(), bus = connection()](SecretVault::Failure failure, const QString& why) {
                      QDBusConnection connection(bus);
                      switch (failure) {
                          case SecretVault::Failure::None:
                              connection.send(request.createReply());
                              break;
                          case SecretVault::Failure::InvalidArgument:
                              connection.send(request.createErrorReply(kErrorInvalidArgument, why));
                              break;
                          case SecretVault::Failure::Keychain:
                          case SecretVault::Failure::Storage:
                              connection.send(request.createErrorReply(kErrorKeychain, why));
                              break;
                      }
                  });
}

QString ManagerService::ListSecrets()
{
    if (!checkCaller(*this)) {
        return {};
    }
    return compact(secrets_->list());
}

void ManagerService::RemoveSecret(const QString& name)
{
    if (!checkCaller(*this)) {
        return;
    }
    setDelayedReply(true);
    secrets_->remove(name, [request = message(), bus = connection()](SecretVault::Failure failure, const QString& why) {
        QDBusConnection connection(bus);
        if (failure == SecretVault::Failure::None) {
            connection.send(request.createReply());
        } else {
            connection.send(request.createErrorReply(
                failure == SecretVault::Failure::InvalidArgument ? kErrorInvalidArgument : kErrorKeychain, why));
        }
    });
}

QString ManagerService::GetPolicy()
{
    if (!checkCaller(*this)) {
        return {};
    }
    return QString::fromStdString(policy_document::describe(paths_.configDir).dump());
}

void ManagerService::SetPolicy(const QString& policy_json)
{
    const auto caller = checkCaller(*this);
    if (!caller) {
        return;
    }
    // A person's policy is a few lines; a bound keeps the log line and the
    // parse small whatever the caller sends.
    if (policy_json.size() > kMaxPolicyJson) {
        sendErrorReply(kErrorInvalidArgument,
                       QStringLiteral("the policy is over %1 characters; a policy.toml is a few lines")
                           .arg(kMaxPolicyJson));
        return;
    }
    // Checked whole before the file is touched: a change the escalation
    // parser would refuse never replaces a policy that works.
    const auto change = nlohmann::json::parse(policy_json.toStdString(), nullptr, false);
    auto text = change.is_discarded()
                    ? Result<std::string>(Error{"the policy is not JSON: send an object of settings, e.g. "
                                                "{\"sudo\":\"deny\"}"})
                    : policy_document::tomlFromChange(change);
    if (!text) {
        sendErrorReply(kErrorInvalidArgument, QString::fromStdString(text.error().message()));
        return;
    }
    if (auto written = policy_document::writeAtomically(paths_.configDir, text.value()); !written) {
        sendErrorReply(kErrorSetupFailed, QString::fromStdString(written.error().message()));
        return;
    }
    // The next request is judged by the new file (ApprovalBroker reads it
    // for each one); who changed it goes to moatd's log.
    qInfo("moatd: policy.toml replaced by uid %u (%s, %s): %s", static_cast<unsigned>(caller->uid),
          qPrintable(caller->user), qPrintable(caller->client), change.dump().c_str());
}

}  // namespace moat::helper
