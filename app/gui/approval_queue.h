// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

namespace moat::gui {

class MoatdConnection;

// How far an approval reaches.
enum class ApprovalScope {
    Once,     // this request only
    Session,  // this request, and the same request from the same session later (moatd approves those)
    Profile,  // as Once; the client wrote the hosts into the session's profile first (ProfileScope)
};

// One thing asked for, by one session: the requests moatd holds that ask
// for the same thing (the same flags and command, or the same HTTP method,
// host, port, path and rule) from the same session, merged. Everything but
// `session` and the times was written by the agent: show it with
// shownUntrusted(), as plain text.
struct ApprovalEntry {
    QString key;             // session and what, as the merge key
    QStringList requestIds;  // moatd's ids of the merged requests, oldest first
    QString session;
    QString sessionName;     // from ListSessions, when known
    QString profile;         // the profile the session's spec records ("default": none given)
    QString kind;            // "successor" (moat request) or "http" (an ask rule)
    QStringList flags;       // successor: as `moat run` spells them
    QStringList command;     // successor: the command it is to run (empty: the same again)
    QString reason;          // successor: the agent's words, the newest request's
    QString policy;          // successor: why policy.toml asks a person
    QJsonObject http;        // http: method, host, port, path, rule[, refs]
    QDateTime expires;       // the earliest of moatd's deadlines: then moatd denies (timed_out)
    quint64 revision = 0;    // grows whenever what is shown changes
    bool answering = false;  // an answer was sent; waiting for moatd's decision
};

// The approvals waiting for a person, as moatd reports them: read with
// ListApprovals at start and after every reconnect, then kept current from
// ApprovalRequested / ApprovalDecided. A request answered elsewhere (`moat
// approve`, the terminal) or timed out leaves the queue when moatd says so.
//
// The queue holds no authority: moatd decides, records who answered, and
// refuses answers to requests it no longer holds.
class ApprovalQueue : public QObject
{
    Q_OBJECT
public:
    // connection may be null (tests feed the queue by hand; answers are then
    // only reported through answerSent).
    explicit ApprovalQueue(MoatdConnection* connection, QObject* parent = nullptr);

    // Oldest first.
    const QList<ApprovalEntry>& entries() const { return entries_; }
    // Entries not yet answered.
    int pendingCount() const;
    const ApprovalEntry* entry(const QString& key) const;

    // Answers every request merged into the entry `key`. A Session scope
    // asks moatd to approve the same request from that session from now on.
    void answer(const QString& key, bool approve, ApprovalScope scope);

public slots:
    // ListApprovals now; the answer replaces what the queue holds.
    void refresh();
    // ListApprovals' JSON array.
    void resetFrom(const QString& approvalsJson);
    // ApprovalRequested.
    void addRequest(const QString& requestId, const QString& requestJson);
    // ApprovalDecided (approved, denied, timed_out, withdrawn).
    void removeDecided(const QString& requestId, const QString& decisionJson);

signals:
    void entryAdded(const QString& key);
    void entryChanged(const QString& key);
    // decision: moatd's word ("approved", "denied", "timed_out", "withdrawn").
    void entryRemoved(const QString& key, const QString& decision);
    void pendingCountChanged(int count);
    // An answer went to moatd (or would have, without a connection).
    void answerSent(const QStringList& requestIds, bool approve, ApprovalScope scope);
    // moatd refused an answer, or could not be reached; message says what to do.
    void answerFailed(const QString& key, const QString& message);

private:
    int indexOf(const QString& key) const;
    void removeRequest(const QString& requestId, const QString& decision);
    void learnSessionNames();
    void notifyCount();

    MoatdConnection* connection_ = nullptr;
    QList<ApprovalEntry> entries_;
    QHash<QString, QString> keyOfRequest_;
    QHash<QString, QString> sessionNames_;
    int lastCount_ = 0;
};

}  // namespace moat::gui
