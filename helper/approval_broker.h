// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <string>

#include "base/error.h"
#include "caller_check.h"
#include "policy/escalation_request.h"

namespace moat::helper {

class SessionRegistry;

// Escalation requests from the sessions' supervisors, and their answers.
// Each request is judged by the user's policy.toml (EscalationPolicy, read
// afresh for each one): auto and deny are answered at once in the policy's
// name; ask waits for AnswerApproval from a person, or the timeout, which is
// a deny ("timed_out"). Every answer goes to the supervisor, which records
// it (approval.decision) with "by": the approver's uid, user name, client
// and time, or {"policy": ...}.
//
// A request is written by the agent inside the sandbox: every field is
// bounded and validated here before anyone is shown it.
//
// Kind "http": a request the user's own `ask` rule holds at the proxy
// (h- ids). policy.toml is not consulted (the user's rule already said to
// ask a person); it waits for AnswerApproval or the supervisor's deadline
// (at most 10 minutes), and an approval never starts a successor: the
// supervisor forwards the held request, or refuses it.
class ApprovalBroker : public QObject {
    Q_OBJECT

public:
    ApprovalBroker(SessionRegistry& sessions, std::string configDir, QObject* parent = nullptr);
    ~ApprovalBroker() override;

    // A "request" message from session `session`'s supervisor.
    void onRequest(const QString& session, const QJsonObject& message);
    // The session ended: its pending requests are withdrawn.
    void onSessionEnded(const QString& session);

    // ListApprovals: {"id","session","profile","kind":"successor","flags","command","reason","requested","expires"}
    // or {"id","session","profile","kind":"http","http":{method,host,port,path,rule[,refs]},"requested","expires"};
    // "profile": the profile name the session's spec records ("default"
    // when it was started without --profile; moat run records no value).
    QJsonArray pending() const;
    // AnswerApproval: the decision as sent and recorded, or an error whose
    // `what` is for the caller (no such request).
    //
    // forSession (AnswerApprovalScoped, scope "session"; HTTP requests and
    // approvals only, else an Error with errnum EINVAL): the same held
    // request (method, host, port, path, rule, refs) from the same session
    // is approved from now on without asking, until the session ends; each
    // such decision is recorded with {"scope":"session","set_by":{the
    // answer's uid, user, client, time and rid}}.
    //
    // Profile (scope "profile"; approving a `moat request` that asks for
    // --allow-host only, from a session started with --profile NAME (not
    // "default", which is what a session without one records), else
    // EINVAL): approved as Once; the client writes
    // the hosts into the session's profile file itself (moatd never writes
    // the user's profiles), and the record says so: "by" carries
    // "scope":"profile" and "profile":NAME.
    enum class Scope { Once, Session, Profile };
    Result<QJsonObject> answer(const QString& requestId, bool approve, const Caller& caller, const QString& client,
                               Scope scope = Scope::Once);

signals:
    void approvalRequested(const QString& requestId, const QString& requestJson);
    void approvalDecided(const QString& requestId, const QString& decisionJson);

private:
    struct Pending;
    void onHttpRequest(const QString& rid, const QString& session, const QJsonObject& message);
    QString profileOf(const QString& session) const;
    void wait(const QString& rid, std::shared_ptr<Pending> pending, qint64 milliseconds);
    QJsonObject decide(const QString& requestId, const QString& session, const QString& decision, const QJsonObject& by,
                       const QString& reason, bool successor);

    SessionRegistry& sessions_;
    std::string configDir_;
    QHash<QString, std::shared_ptr<Pending>> pending_;
    // session -> (what an HTTP request asks, compact JSON -> who granted it for the session)
    QHash<QString, QHash<QString, QJsonObject>> sessionGrants_;
};

}  // namespace moat::helper
