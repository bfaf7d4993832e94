// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDBusConnection>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class OrgMoatManager1Interface;
class QDBusPendingCall;
class QDBusServiceWatcher;
class QTimer;

namespace moat::gui {

// One answer from moatd: the returned string (JSON for most calls), or the
// D-Bus error's name and a message a person can act on.
struct MoatdAnswer {
    bool ok = false;
    QString value;
    QString errorName;
    QString errorMessage;
};

// The application's one link to moatd (helper/org.moat.Manager1.xml), over
// the proxy generated from that file. Calls are asynchronous: the window
// never waits on the bus. The first call starts moatd through D-Bus
// activation when it is not running; when moatd goes away (a crash, an
// upgrade), `linkChanged(false, ...)` says so and the connection asks again
// every few seconds until moatd (activated anew) answers.
//
// Trust: moatd checks that the caller is its own uid; this side trusts only
// the well-known name on the user's own session bus, which only that user
// can connect to.
class MoatdConnection : public QObject
{
    Q_OBJECT
public:
    using Reply = std::function<void(const MoatdAnswer&)>;

    // bus: the user's session bus, or a private one in tests.
    explicit MoatdConnection(const QDBusConnection& bus, QObject* parent = nullptr);
    ~MoatdConnection() override;

    // The session bus of DBUS_SESSION_BUS_ADDRESS, or the bus at `address`.
    static QDBusConnection busAt(const QString& address);

    QDBusConnection bus() const { return bus_; }
    bool isLinked() const { return linked_; }
    QString linkMessage() const { return linkMessage_; }

    // Asks moatd for its sessions now; starts it by activation if needed.
    void connectNow();

    void startSession(const QString& specJson, int stdinFd, int stdoutFd, int stderrFd, int clientFd,
                      Reply reply);
    void listSessions(bool all, Reply reply);
    void stopSession(const QString& id, Reply reply);
    void renewSession(const QString& id, const QString& ttl, Reply reply);
    void readTimeline(const QString& id, quint64 afterSeq, uint maxEvents, Reply reply);
    // The same, waiting for the answer (for a model's fetchMore(), which must
    // return with its rows); at most timeoutMs.
    MoatdAnswer readTimelineNow(const QString& id, quint64 afterSeq, uint maxEvents, int timeoutMs = 10000);
    void listApprovals(Reply reply);
    void answerApproval(const QString& requestId, bool approve, Reply reply);
    // scope: "once" or "session" (AnswerApprovalScoped).
    void answerApprovalScoped(const QString& requestId, bool approve, const QString& scope, Reply reply);
    void setSecret(const QString& name, const QString& value, const QStringList& hosts, const QStringList& headers,
                   Reply reply);
    void listSecrets(Reply reply);
    void removeSecret(const QString& name, Reply reply);
    // The escalation policy (policy.toml): GetPolicy's JSON, and a change
    // as SetPolicy takes it (helper/org.moat.Manager1.xml).
    void getPolicy(Reply reply);
    void setPolicy(const QString& policyJson, Reply reply);

    // The name moatd records as the answering program.
    static QString clientName() { return QStringLiteral("gui"); }

signals:
    // linked: moatd answers. message: what to tell the user ("moatd is not
    // running; starting it..." / "Reconnected to moatd").
    void linkChanged(bool linked, const QString& message);
    void sessionStarted(const QString& sessionId, const QString& sessionJson);
    void sessionEnded(const QString& sessionId, const QString& state, int exitCode);
    void eventsAppended(const QString& sessionId, quint64 lastSeq, uint count);
    void approvalRequested(const QString& requestId, const QString& requestJson);
    void approvalDecided(const QString& requestId, const QString& decisionJson);

private:
    void watch(const QDBusPendingCall& call, Reply reply, bool hasValue);
    void setLinked(bool linked, const QString& message);
    void onOwnerLost();

    QDBusConnection bus_;
    std::unique_ptr<OrgMoatManager1Interface> proxy_;
    QDBusServiceWatcher* watcher_ = nullptr;
    QTimer* retry_ = nullptr;
    bool linked_ = false;
    bool everLinked_ = false;
    QString linkMessage_;
};

}  // namespace moat::gui
