// SPDX-License-Identifier: Apache-2.0
#include "approval_broker.h"
#include "http_approval.h"
#include "json_key.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QRegularExpression>
#include <nlohmann/json.hpp>

#include <cerrno>

#include "policy/escalation_policy.h"
#include "session_registry.h"

namespace moat::helper {

namespace {

QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
}

QJsonArray toJsonArray(const std::vector<std::string>& items)
{
    QJsonArray array;
    for (const auto& item : items) {
        array.append(QString::fromStdString(item));
    }
    return array;
}

// The ids the supervisor makes: "r-" (an escalation request) or "h-" (an
// HTTP request an ask rule holds) and 12 hex digits (protocol.md).
bool isRequestId(const QString& rid)
{
    static const QRegularExpression pattern(QStringLiteral("^[rh]-[0-9a-f]{12}$"));
    return pattern.match(rid).hasMatch();
}

constexpr int kMaxTimeoutSeconds = 600;

// What a held HTTP request asks, as the key of a grant for its session.
QString grantKey(const QJsonObject& http)
{
    return QString::fromUtf8(QJsonDocument(http).toJson(QJsonDocument::Compact));
}

}  // namespace

struct ApprovalBroker::Pending {
    QString session;
    QString profile;    // as the session's spec records it
    bool http = false;  // an ask rule's held request: no successor
    EscalationRequest request;
    QJsonObject shown;  // the ListApprovals entry
    QTimer deadline;
};

ApprovalBroker::ApprovalBroker(SessionRegistry& sessions, std::string configDir, QObject* parent)
    : QObject(parent), sessions_(sessions), configDir_(std::move(configDir))
{
}

ApprovalBroker::~ApprovalBroker() = default;

void ApprovalBroker::onRequest(const QString& session, const QJsonObject& message)
{
    const QString rid = message.value(key("rid")).toString();
    if (!isRequestId(rid) || message.value(key("session")).toString(session) != session) {
        qWarning("moatd: session %s: a request with a malformed id or session was ignored", qPrintable(session));
        return;
    }
    if (pending_.contains(rid)) {
        return;  // sent again after a re-attach: it is already waiting
    }
    const bool http = rid.startsWith(QLatin1String("h-"));
    if (http != (message.value(key("kind")).toString() == QLatin1String("http"))) {
        qWarning("moatd: session %s: request %s: its id and its kind do not match; ignored", qPrintable(session),
                 qPrintable(rid));
        return;
    }
    if (http) {
        onHttpRequest(rid, session, message);
        return;
    }
    // The agent's words, re-parsed and bounded by the same rules the
    // supervisor applied: moatd does not take its validation on trust.
    const QByteArray body = QJsonDocument(message.value(key("request")).toObject()).toJson(QJsonDocument::Compact);
    auto request = escalationRequestFromJson(nlohmann::json::parse(body.toStdString(), nullptr, false));
    if (!request) {
        decide(rid, session, key("denied"), {{key("policy"), key("deny")}},
               QStringLiteral("malformed request: ") + QString::fromStdString(request.error().message()), false);
        return;
    }
    const EscalationPolicy policy = EscalationPolicy::load(configDir_);
    if (!policy.brokenBecause.empty()) {
        qWarning("moatd: %s", policy.brokenBecause.c_str());
    }
    const auto verdict = policy.decide(request.value());
    const QString reason = QString::fromStdString(verdict.reason);
    if (verdict.grant == Grant::Deny) {
        decide(rid, session, key("denied"), {{key("policy"), key("deny")}}, reason, false);
        return;
    }
    if (verdict.grant == Grant::Auto) {
        const bool successor = sessions_.hasClient(session);
        if (successor) {
            sessions_.setSuccessor(session, rid, request.value());
        }
        decide(rid, session, key("approved"), {{key("policy"), key("auto")}}, reason, successor);
        return;
    }
    int timeout = static_cast<int>(policy.timeout.seconds().count());
    const int asked = message.value(key("timeout_seconds")).toInt(kMaxTimeoutSeconds);
    if (asked > 0) {
        timeout = std::min({timeout, asked, kMaxTimeoutSeconds});
    }
    auto pending = std::make_shared<Pending>();
    pending->session = session;
    pending->request = request.value();
    pending->profile = profileOf(session);
    const QDateTime requested = QDateTime::currentDateTimeUtc();
    pending->shown = QJsonObject{
        {key("id"), rid},
        {key("session"), session},
        {key("profile"), pending->profile},
        {key("kind"), key("successor")},
        {key("flags"), toJsonArray(request->flagArguments())},
        {key("command"), toJsonArray(request->command)},
        {key("reason"), QString::fromStdString(request->reason)},
        {key("requested"), requested.toString(Qt::ISODate)},
        {key("expires"), requested.addSecs(timeout).toString(Qt::ISODate)},
        {key("policy"), reason},
    };
    wait(rid, std::move(pending), timeout * 1000LL);
}

void ApprovalBroker::onHttpRequest(const QString& rid, const QString& session, const QJsonObject& message)
{
    const QDateTime requested = QDateTime::currentDateTimeUtc();
    auto approval = httpApprovalFrom(message, requested, kMaxTimeoutSeconds);
    if (!approval) {
        decide(rid, session, key("denied"), {{key("policy"), key("deny")}},
               QStringLiteral("malformed request: ") + QString::fromStdString(approval.error().message()), false);
        return;
    }
    // A person approved this very request for this session already: moatd
    // answers in their name, and the record says whose grant it was.
    const QJsonObject granted = sessionGrants_.value(session).value(grantKey(approval->http));
    if (!granted.isEmpty()) {
        decide(rid, session, key("approved"), {{key("scope"), key("session")}, {key("set_by"), granted}},
               QStringLiteral("approved for this session by %1").arg(granted.value(key("user")).toString()), false);
        return;
    }
    auto pending = std::make_shared<Pending>();
    pending->session = session;
    pending->http = true;
    pending->profile = profileOf(session);
    pending->shown = QJsonObject{
        {key("id"), rid},
        {key("session"), session},
        {key("profile"), pending->profile},
        {key("kind"), key("http")},
        {key("http"), approval->http},
        {key("requested"), requested.toString(Qt::ISODate)},
        {key("expires"), approval->expires.toString(Qt::ISODate)},
    };
    wait(rid, std::move(pending), std::max<qint64>(requested.msecsTo(approval->expires), 0));
}

QString ApprovalBroker::profileOf(const QString& session) const
{
    return sessions_.records().spec(session).value(key("profile")).toString();
}

void ApprovalBroker::wait(const QString& rid, std::shared_ptr<Pending> pending, qint64 milliseconds)
{
    pending->deadline.setSingleShot(true);
    connect(&pending->deadline, &QTimer::timeout, this, [this, rid] {
        const auto waiting = pending_.value(rid);
        if (waiting) {
            decide(rid, waiting->session, key("timed_out"), {{key("policy"), key("timeout")}},
                   QStringLiteral("nobody answered in time"), false);
        }
    });
    pending->deadline.start(static_cast<int>(milliseconds));
    const QJsonObject shown = pending->shown;
    pending_.insert(rid, std::move(pending));
    emit approvalRequested(rid, QString::fromUtf8(QJsonDocument(shown).toJson(QJsonDocument::Compact)));
}

void ApprovalBroker::onSessionEnded(const QString& session)
{
    sessionGrants_.remove(session);
    for (auto it = pending_.begin(); it != pending_.end();) {
        if (it.value()->session == session) {
            const QString rid = it.key();
            it = pending_.erase(it);
            const QJsonObject withdrawn{{key("rid"), rid},
                                        {key("decision"), key("withdrawn")},
                                        {key("reason"), key("the session ended before anyone answered")}};
            emit approvalDecided(rid, QString::fromUtf8(QJsonDocument(withdrawn).toJson(QJsonDocument::Compact)));
        } else {
            ++it;
        }
    }
}

QJsonArray ApprovalBroker::pending() const
{
    QJsonArray list;
    for (const auto& waiting : pending_) {
        list.append(waiting->shown);
    }
    return list;
}

Result<QJsonObject> ApprovalBroker::answer(const QString& requestId, bool approve, const Caller& caller,
                                           const QString& client, Scope scope)
{
    const bool forSession = scope == Scope::Session;
    const auto waiting = pending_.value(requestId);
    if (!waiting) {
        return Error{"no pending request has the id '" + requestId.toStdString() +
                     "'; it was answered, timed out or never existed (moat approvals lists the pending ones)"};
    }
    if (forSession && (!approve || !waiting->http)) {
        // An approved successor request ends its session: there is no later
        // request from it to approve; a deny needs no scope.
        return Error{"the scope 'session' applies to approving a request an ask rule holds (an h- id) only; "
                     "answer this one with the scope 'once'",
                     EINVAL};
    }
    if (scope == Scope::Profile) {
        // Only what a profile can hold (allow_host): sudo, docker and an
        // open network are never made "always" from a prompt.
        const EscalationRequest& asked = waiting->request;
        if (!approve || waiting->http || asked.allowHosts.empty() || asked.sudo || asked.docker || asked.netOpen) {
            return Error{"the scope 'profile' applies to approving a `moat request` that asks for --allow-host only; "
                         "answer this one with the scope 'once'",
                         EINVAL};
        }
        // `moat run` without --profile records "default" and reads no file.
        if (waiting->profile.isEmpty() || waiting->profile == QLatin1String("default")) {
            return Error{"the scope 'profile' needs a session started with --profile NAME; this one runs without "
                         "a profile: answer it with the scope 'once'",
                         EINVAL};
        }
    }
    QJsonObject by{{key("uid"), static_cast<qint64>(caller.uid)},
                   {key("user"), caller.user},
                   {key("client"), client},
                   {key("time"), now()}};
    if (forSession) {
        by.insert(key("scope"), key("session"));
        QJsonObject setBy = by;
        setBy.remove(key("scope"));
        setBy.insert(key("rid"), requestId);
        sessionGrants_[waiting->session].insert(grantKey(waiting->shown.value(key("http")).toObject()), setBy);
    } else if (scope == Scope::Profile) {
        by.insert(key("scope"), key("profile"));
        by.insert(key("profile"), waiting->profile);
    }
    // An HTTP request is forwarded or refused by its supervisor: nothing starts.
    const bool successor = approve && !waiting->http && sessions_.hasClient(waiting->session);
    if (successor) {
        sessions_.setSuccessor(waiting->session, requestId, waiting->request);
    }
    const QString reason =
        approve ? QStringLiteral("approved by %1").arg(caller.user) : QStringLiteral("denied by %1").arg(caller.user);
    return decide(requestId, waiting->session, approve ? key("approved") : key("denied"), by, reason, successor);
}

QJsonObject ApprovalBroker::decide(const QString& requestId, const QString& session, const QString& decision,
                                   const QJsonObject& by, const QString& reason, bool successor)
{
    pending_.remove(requestId);
    const QJsonObject message{{key("t"), key("decision")}, {key("rid"), requestId},
                              {key("decision"), decision}, {key("by"), by},
                              {key("reason"), reason},     {key("successor"), successor}};
    if (!sessions_.sendToSupervisor(session, message)) {
        qWarning("moatd: session %s: the decision on %s could not be sent (the session is gone)", qPrintable(session),
                 qPrintable(requestId));
    }
    QJsonObject decided = message;
    decided.remove(key("t"));
    decided.insert(key("session"), session);
    emit approvalDecided(requestId, QString::fromUtf8(QJsonDocument(decided).toJson(QJsonDocument::Compact)));
    return decided;
}

}  // namespace moat::helper
