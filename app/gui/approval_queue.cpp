// SPDX-License-Identifier: Apache-2.0
#include "approval_queue.h"

#include "moatd_connection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace moat::gui {

namespace {

QStringList strings(const QJsonValue& value)
{
    QStringList list;
    for (const QJsonValue& item : value.toArray()) {
        list.append(item.toString());
    }
    return list;
}

// The merge key: the session, and what is asked, exactly. Two requests that
// differ in any flag, host, path or command are two entries.
QString mergeKey(const ApprovalEntry& entry)
{
    const QJsonObject what = entry.kind == QLatin1String("http")
                                 ? entry.http
                                 : QJsonObject{{QStringLiteral("flags"), QJsonArray::fromStringList(entry.flags)},
                                               {QStringLiteral("command"), QJsonArray::fromStringList(entry.command)}};
    return entry.session + QLatin1Char('\n') + entry.kind + QLatin1Char('\n') +
           QString::fromUtf8(QJsonDocument(what).toJson(QJsonDocument::Compact));
}

QString scopeWord(ApprovalScope scope)
{
    switch (scope) {
        case ApprovalScope::Session:
            return QStringLiteral("session");
        case ApprovalScope::Profile:
            return QStringLiteral("profile");
        case ApprovalScope::Once:
            break;
    }
    return QStringLiteral("once");
}

}  // namespace

ApprovalQueue::ApprovalQueue(MoatdConnection* connection, QObject* parent) : QObject(parent), connection_(connection)
{
    if (connection_) {
        connect(connection_, &MoatdConnection::approvalRequested, this, &ApprovalQueue::addRequest);
        connect(connection_, &MoatdConnection::approvalDecided, this, &ApprovalQueue::removeDecided);
        // After moatd restarts, what it holds is all that counts.
        connect(connection_, &MoatdConnection::linkChanged, this, [this](bool linked) {
            if (linked) {
                refresh();
            }
        });
        refresh();
    }
}

int ApprovalQueue::pendingCount() const
{
    return static_cast<int>(std::count_if(entries_.cbegin(), entries_.cend(),
                                          [](const ApprovalEntry& entry) { return !entry.answering; }));
}

int ApprovalQueue::indexOf(const QString& key) const
{
    for (int i = 0; i < entries_.size(); ++i) {
        if (entries_.at(i).key == key) {
            return i;
        }
    }
    return -1;
}

const ApprovalEntry* ApprovalQueue::entry(const QString& key) const
{
    const int index = indexOf(key);
    return index < 0 ? nullptr : &entries_.at(index);
}

void ApprovalQueue::refresh()
{
    if (!connection_) {
        return;
    }
    connection_->listApprovals([this](const MoatdAnswer& answer) {
        if (answer.ok) {
            resetFrom(answer.value);
        }
    });
}

void ApprovalQueue::resetFrom(const QString& approvalsJson)
{
    const QJsonArray list = QJsonDocument::fromJson(approvalsJson.toUtf8()).array();
    QSet<QString> held;
    for (const QJsonValue& item : list) {
        held.insert(item.toObject().value(QLatin1String("id")).toString());
    }
    // Requests moatd no longer holds were decided while we were not listening.
    const QStringList known = keyOfRequest_.keys();
    for (const QString& rid : known) {
        if (!held.contains(rid)) {
            removeRequest(rid, QString());
        }
    }
    for (const QJsonValue& item : list) {
        const QJsonObject request = item.toObject();
        addRequest(request.value(QLatin1String("id")).toString(),
                   QString::fromUtf8(QJsonDocument(request).toJson(QJsonDocument::Compact)));
    }
}

void ApprovalQueue::addRequest(const QString& requestId, const QString& requestJson)
{
    if (requestId.isEmpty() || keyOfRequest_.contains(requestId)) {
        return;  // listed and signalled both: already here
    }
    const QJsonObject request = QJsonDocument::fromJson(requestJson.toUtf8()).object();
    ApprovalEntry incoming;
    incoming.session = request.value(QLatin1String("session")).toString();
    incoming.kind = request.value(QLatin1String("kind")).toString();
    if (incoming.session.isEmpty() ||
        (incoming.kind != QLatin1String("successor") && incoming.kind != QLatin1String("http"))) {
        qWarning("moat-manager: ignoring approval request %s of an unknown shape", qPrintable(requestId.left(40)));
        return;
    }
    incoming.flags = strings(request.value(QLatin1String("flags")));
    incoming.command = strings(request.value(QLatin1String("command")));
    incoming.reason = request.value(QLatin1String("reason")).toString();
    incoming.policy = request.value(QLatin1String("policy")).toString();
    incoming.profile = request.value(QLatin1String("profile")).toString();
    incoming.http = request.value(QLatin1String("http")).toObject();
    incoming.expires = QDateTime::fromString(request.value(QLatin1String("expires")).toString(), Qt::ISODate);
    incoming.sessionName = sessionNames_.value(incoming.session);
    incoming.key = mergeKey(incoming);
    keyOfRequest_.insert(requestId, incoming.key);

    const int index = indexOf(incoming.key);
    if (index < 0) {
        incoming.requestIds = {requestId};
        entries_.append(incoming);
        emit entryAdded(incoming.key);
        notifyCount();
        learnSessionNames();
        return;
    }
    // The same thing asked again by the same session: one entry, answered once.
    ApprovalEntry& merged = entries_[index];
    merged.requestIds.append(requestId);
    if (incoming.expires.isValid() && (!merged.expires.isValid() || incoming.expires < merged.expires)) {
        merged.expires = incoming.expires;
    }
    if (merged.reason != incoming.reason || merged.answering) {
        merged.reason = incoming.reason;
        ++merged.revision;
    }
    // An answer already sent named the older ids only: the new request needs
    // a person's answer of its own, so the entry is shown again.
    merged.answering = false;
    emit entryChanged(merged.key);
    notifyCount();
}

void ApprovalQueue::removeDecided(const QString& requestId, const QString& decisionJson)
{
    const QJsonObject decision = QJsonDocument::fromJson(decisionJson.toUtf8()).object();
    removeRequest(requestId, decision.value(QLatin1String("decision")).toString());
}

void ApprovalQueue::removeRequest(const QString& requestId, const QString& decision)
{
    const QString key = keyOfRequest_.take(requestId);
    const int index = indexOf(key);
    if (index < 0) {
        return;
    }
    ApprovalEntry& entry = entries_[index];
    entry.requestIds.removeAll(requestId);
    if (entry.requestIds.isEmpty()) {
        entries_.removeAt(index);
        emit entryRemoved(key, decision);
    }
    notifyCount();
}

void ApprovalQueue::answer(const QString& key, bool approve, ApprovalScope scope)
{
    const int index = indexOf(key);
    if (index < 0) {
        return;
    }
    ApprovalEntry& entry = entries_[index];
    entry.answering = true;
    const QStringList ids = entry.requestIds;
    emit entryChanged(key);
    notifyCount();
    emit answerSent(ids, approve, scope);
    if (!connection_) {
        return;
    }
    for (const QString& rid : ids) {
        auto reply = [this, key, rid](const MoatdAnswer& answer) {
            if (answer.ok) {
                return;  // ApprovalDecided takes it off the queue
            }
            if (answer.errorName == QLatin1String("org.moat.Error.NoSuchRequest")) {
                removeRequest(rid, QString());  // decided elsewhere first
                return;
            }
            const int at = indexOf(key);
            if (at >= 0) {
                entries_[at].answering = false;
                emit entryChanged(key);
                notifyCount();
            }
            emit answerFailed(key, tr("moatd did not take the answer: %1").arg(answer.errorMessage));
        };
        if (scope == ApprovalScope::Once) {
            connection_->answerApproval(rid, approve, reply);
        } else {
            connection_->answerApprovalScoped(rid, approve, scopeWord(scope), reply);
        }
    }
}

void ApprovalQueue::learnSessionNames()
{
    if (!connection_) {
        return;
    }
    connection_->listSessions(false, [this](const MoatdAnswer& answer) {
        if (!answer.ok) {
            return;
        }
        for (const QJsonValue& item : QJsonDocument::fromJson(answer.value.toUtf8()).array()) {
            const QJsonObject session = item.toObject();
            sessionNames_.insert(session.value(QLatin1String("id")).toString(),
                                 session.value(QLatin1String("name")).toString());
        }
        for (ApprovalEntry& entry : entries_) {
            const QString name = sessionNames_.value(entry.session);
            if (name != entry.sessionName) {
                entry.sessionName = name;
                emit entryChanged(entry.key);
            }
        }
    });
}

void ApprovalQueue::notifyCount()
{
    const int count = pendingCount();
    if (count != lastCount_) {
        lastCount_ = count;
        emit pendingCountChanged(count);
    }
}

}  // namespace moat::gui
