// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QSocketNotifier>
#include <QString>
#include <QTimer>
#include <memory>
#include <string>

#include "base/error.h"
#include "base/unique_fd.h"

namespace moat::helper {

class JsonChannel;

// One moat-supervisor as moatd sees it: its parent link (protocol.md) and a
// pidfd that says when it is gone. Either moatd started it (spawn) or found
// it running after a restart (reattach).
//
// The supervisor is moatd's own code running outside the sandbox, but some
// of what it relays (escalation requests) was written by an agent: the
// caller validates every field of received() messages.
class SupervisorHandle : public QObject {
    Q_OBJECT

public:
    // The client's fds, borrowed: the supervisor gets copies as 0, 1 and 2.
    struct Stdio {
        int in = -1;
        int out = -1;
        int err = -1;
    };

    // Starts moat-supervisor (supervisorProgramPath()) in a session of its own,
    // so that it outlives moatd: the spec on a sealed memfd, the record keys
    // on `keys`, one end of a SOCK_SEQPACKET socketpair as --parent-fd.
    // secrets: the session's secret values (keychain/session_secrets.h),
    // invalid when it has none.
    static Result<std::unique_ptr<SupervisorHandle>> spawn(const QString& sessionId, const std::string& specJson,
                                                           UniqueFd keys, Stdio stdio, UniqueFd secrets = {});
    // Connects to a running supervisor's socket (MoatPaths::supervisorSocket)
    // and accepts it only when the peer is `pid` and runs as moatd's uid.
    static Result<std::unique_ptr<SupervisorHandle>> reattach(const QString& sessionId, pid_t pid,
                                                              const std::string& socketPath);
    ~SupervisorHandle() override;

    const QString& sessionId() const { return sessionId_; }
    pid_t pid() const { return pid_; }
    bool reattached() const { return reattached_; }
    bool send(const QJsonObject& message);
    // Asks the supervisor to stop (it records who asked). Should it still
    // run kStopDeadlineMs later, moatd kills it: its sandbox dies with it.
    void stop(const QJsonObject& by);

    static constexpr int kStopDeadlineMs = 15000;

signals:
    // Every message after "hello" except "ended" (which ends it): events,
    // request, renewed, started.
    void received(const QJsonObject& message);
    // Exactly once, when the process is gone: the state and exit code of
    // its "ended" message, or "failed" with why when it died without one.
    void finished(const QString& state, int exitCode, const QString& why);

private:
    SupervisorHandle(QString sessionId, pid_t pid, UniqueFd pidfd, bool reattached);
    void attachChannel(std::unique_ptr<JsonChannel> channel);
    void onMessage(const QJsonObject& message);
    void onExited();

    QString sessionId_;
    pid_t pid_;
    UniqueFd pidfd_;
    bool reattached_;
    std::unique_ptr<JsonChannel> channel_;
    std::unique_ptr<QSocketNotifier> exitNotifier_;
    QTimer killTimer_;
    bool helloSeen_ = false;
    bool ended_ = false;
    QString endState_;
    int endCode_ = 0;
    bool finished_ = false;
};

}  // namespace moat::helper
