// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "base/unique_fd.h"

namespace moat::helper {

class JsonChannel;

// The link to the program that started a session (StartSession's `client`
// fd: one end of a socketpair the caller keeps). One JSON object a line:
//   moatd -> client  {"t":"started","session":ID}
//                    {"t":"successor","session":NEW,"parent":OLD,"request":RID}
//                    {"t":"ended","session":ID,"state":S,"exit_code":N}   last
//   client -> moatd  {"t":"signal","signal":N}   forward N to the sandbox
//                    {"t":"detach"}              the session outlives the client
// The client closing the link without "detach" means its user is gone: the
// session (and any successor) is stopped, as in embedded mode where moat and
// its session live and die together.
class ClientLink : public QObject {
    Q_OBJECT

public:
    explicit ClientLink(UniqueFd fd, QObject* parent = nullptr);
    ~ClientLink() override;

    void sendStarted(const QString& session);
    void sendSuccessor(const QString& session, const QString& parent, const QString& request);
    // The last message; the link is closed after it.
    // An agent's request waits for a person: the attached `moat run` says so
    // on the terminal that started the session, with how to answer.
    void sendApproval(const QJsonObject& request);
    void sendEnded(const QString& session, const QString& state, int exitCode);
    bool isDetached() const { return detached_; }

signals:
    void signalRequested(int signal);
    // Closed without "detach" (or it broke): stop the session.
    void hungUp();

private:
    std::unique_ptr<JsonChannel> channel_;
    bool detached_ = false;
    bool ended_ = false;
};

}  // namespace moat::helper
