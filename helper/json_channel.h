// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QSocketNotifier>
#include <memory>

#include "base/unique_fd.h"

namespace moat::helper {

// One JSON object per message on a Unix socket that moatd holds:
//   Datagrams  SOCK_SEQPACKET, one object per datagram (a supervisor moatd
//              started: the parent link of protocol.md);
//   Lines      SOCK_STREAM, one object per line (a supervisor moatd
//              re-attached to, and a client's link).
// Non-blocking both ways: a peer that stops reading cannot stall moatd; past
// kMaxQueued unsent bytes the channel gives up on it and closes.
// Every message in is bounded (maxMessage) and must be a JSON object; the
// caller validates its fields. fds passed to moatd are closed unread.
class JsonChannel : public QObject {
    Q_OBJECT

public:
    enum class Framing { Datagrams, Lines };
    static constexpr qsizetype kMaxQueued = 1 << 20;

    JsonChannel(UniqueFd fd, Framing framing, qsizetype maxMessage, QObject* parent = nullptr);
    ~JsonChannel() override;

    // false once the channel is closed (or when it just closed because the
    // peer stopped reading).
    bool send(const QJsonObject& message);
    void close();
    bool isOpen() const { return fd_.valid(); }
    // Reads whatever is already waiting (e.g. the last message of a
    // process that just exited) and emits it before returning.
    void drain();

signals:
    void received(const QJsonObject& message);
    // Bad input from the peer (too long, not a JSON object): said once,
    // then the message is dropped (datagrams) or the channel closed (lines).
    void protocolError(const QString& what);
    // The peer closed, or the channel gave up; emitted once.
    void closed();

private:
    void onReadable();
    bool readDatagram();
    bool readStream();
    void deliver(const QByteArray& bytes);
    void flush();
    void finish();

    UniqueFd fd_;
    Framing framing_;
    qsizetype maxMessage_;
    std::unique_ptr<QSocketNotifier> readNotifier_;
    std::unique_ptr<QSocketNotifier> writeNotifier_;
    QByteArray in_;
    QByteArray out_;  // Lines only: what the peer has not taken yet
    QList<QByteArray> outDatagrams_;
    bool closedEmitted_ = false;
};

}  // namespace moat::helper
