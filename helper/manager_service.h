// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDBusContext>
#include <QDBusUnixFileDescriptor>
#include <QObject>
#include <QStringList>
#include <memory>

#include "base/moat_paths.h"
#include "timeline_index.h"

namespace moat::keychain {
class RecordKeyStore;
}

namespace moat::helper {

class ApprovalBroker;
class SecretVault;
class SessionRegistry;

// org.moat.Manager1 (helper/org.moat.Manager1.xml): the object behind the
// generated adaptor. Every method checks its caller first (checkCaller: the
// bus's word for the caller's uid, which must be moatd's own) and returns at
// once when refused; only then does it read its arguments.
class ManagerService : public QObject, protected QDBusContext {
    Q_OBJECT

public:
    explicit ManagerService(MoatPaths paths, QObject* parent = nullptr);
    ~ManagerService() override;

    // Re-attaches to the supervisors a previous moatd left running.
    void reattach();

public slots:
    QString StartSession(const QString& spec_json, const QDBusUnixFileDescriptor& stdin_fd,
                         const QDBusUnixFileDescriptor& stdout_fd, const QDBusUnixFileDescriptor& stderr_fd,
                         const QDBusUnixFileDescriptor& client);
    QString ListSessions(bool all);
    void StopSession(const QString& id);
    QString RenewSession(const QString& id, const QString& ttl);
    QString ReadTimeline(const QString& id, qulonglong after_seq, uint max_events);
    QString ListApprovals();
    QString AnswerApproval(const QString& request_id, bool approve, const QString& client);
    // scope "once" (as AnswerApproval), "session" or "profile" (ApprovalBroker::answer).
    QString AnswerApprovalScoped(const QString& request_id, bool approve, const QString& scope, const QString& client);
    void SetSecret(const QString& name, const QString& value, const QStringList& hosts, const QStringList& headers);
    QString ListSecrets();
    void RemoveSecret(const QString& name);
    // The user's policy.toml (policy/policy_document.h): shown with each
    // setting's origin, and replaced whole after the escalation parser
    // accepts the change.
    QString GetPolicy();
    void SetPolicy(const QString& policy_json);

signals:
    void SessionStarted(const QString& session_id, const QString& session_json);
    void SessionEnded(const QString& session_id, const QString& state, int exit_code);
    void EventsAppended(const QString& session_id, qulonglong last_seq, uint count);
    void ApprovalRequested(const QString& request_id, const QString& request_json);
    void ApprovalDecided(const QString& request_id, const QString& decision_json);

private:
    // A session directory's id from an id, unique prefix or name, running
    // or past; empty after replying with an error.
    QString resolveAny(const QString& idPrefixOrName);

    MoatPaths paths_;
    std::unique_ptr<keychain::RecordKeyStore> keys_;
    std::unique_ptr<SessionRegistry> sessions_;
    std::unique_ptr<ApprovalBroker> approvals_;
    std::unique_ptr<SecretVault> secrets_;
    TimelineIndex timelineIndex_;  // ReadTimeline's seq -> offset marks
};

}  // namespace moat::helper
