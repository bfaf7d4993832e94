// SPDX-License-Identifier: Apache-2.0
#include "json_channel.h"

#include <fcntl.h>
#include <sys/socket.h>

#include <QJsonDocument>
#include <QJsonParseError>
#include <cerrno>
#include <cstring>

namespace moat::helper {

JsonChannel::JsonChannel(UniqueFd fd, Framing framing, qsizetype maxMessage, QObject* parent)
    : QObject(parent), fd_(std::move(fd)), framing_(framing), maxMessage_(maxMessage)
{
    const int flags = ::fcntl(fd_.get(), F_GETFL);
    ::fcntl(fd_.get(), F_SETFL, flags | O_NONBLOCK);
    readNotifier_ = std::make_unique<QSocketNotifier>(fd_.get(), QSocketNotifier::Read);
    connect(readNotifier_.get(), &QSocketNotifier::activated, this, &JsonChannel::onReadable);
}

JsonChannel::~JsonChannel() = default;

bool JsonChannel::send(const QJsonObject& message)
{
    if (!fd_) {
        return false;
    }
    QByteArray bytes = QJsonDocument(message).toJson(QJsonDocument::Compact);
    if (framing_ == Framing::Lines) {
        bytes.append('\n');
        out_.append(bytes);
    } else {
        outDatagrams_.append(bytes);
    }
    flush();
    return fd_.valid();
}

void JsonChannel::flush()
{
    qsizetype queued = out_.size();
    while (fd_ && framing_ == Framing::Datagrams && !outDatagrams_.isEmpty()) {
        const QByteArray& next = outDatagrams_.front();
        const ssize_t n =
            ::send(fd_.get(), next.constData(), static_cast<size_t>(next.size()), MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            break;
        }
        if (n < 0) {
            finish();  // EPIPE, ECONNRESET: the peer is gone
            return;
        }
        outDatagrams_.removeFirst();
    }
    while (fd_ && framing_ == Framing::Lines && !out_.isEmpty()) {
        const ssize_t n =
            ::send(fd_.get(), out_.constData(), static_cast<size_t>(out_.size()), MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            break;
        }
        if (n < 0) {
            finish();
            return;
        }
        out_.remove(0, n);
    }
    for (const QByteArray& datagram : outDatagrams_) {
        queued += datagram.size();
    }
    if (queued > kMaxQueued) {
        emit protocolError(QStringLiteral("the peer stopped reading (over %1 bytes unsent)").arg(kMaxQueued));
        finish();
        return;
    }
    const bool pending = queued > 0;
    if (pending && !writeNotifier_ && fd_) {
        writeNotifier_ = std::make_unique<QSocketNotifier>(fd_.get(), QSocketNotifier::Write);
        connect(writeNotifier_.get(), &QSocketNotifier::activated, this, &JsonChannel::flush);
    } else if (!pending && writeNotifier_) {
        writeNotifier_.reset();
    }
}

void JsonChannel::onReadable()
{
    drain();
}

void JsonChannel::drain()
{
    // Bounded per wake-up, so that one chatty peer cannot starve the others.
    for (int i = 0; i < 64 && fd_; ++i) {
        const bool more = framing_ == Framing::Datagrams ? readDatagram() : readStream();
        if (!more) {
            break;
        }
    }
}

bool JsonChannel::readDatagram()
{
    QByteArray buffer(maxMessage_ + 1, Qt::Uninitialized);
    iovec iov{buffer.data(), static_cast<size_t>(buffer.size())};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)] = {};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(fd_.get(), &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) {
            return false;
        }
        finish();
        return false;
    }
    // No message to moatd carries an fd: whatever came is closed unused.
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t k = 0; k < count; ++k) {
                int passed = -1;
                std::memcpy(&passed, CMSG_DATA(c) + k * sizeof(int), sizeof(int));
                ::close(passed);
            }
        }
    }
    if (n == 0) {
        finish();  // SOCK_SEQPACKET: end of the peer (no message is empty)
        return false;
    }
    if ((msg.msg_flags & MSG_TRUNC) || n > maxMessage_) {
        emit protocolError(QStringLiteral("a message over %1 bytes was dropped").arg(maxMessage_));
        return true;
    }
    buffer.truncate(n);
    deliver(buffer);
    return true;
}

bool JsonChannel::readStream()
{
    char chunk[16384];
    const ssize_t n = ::recv(fd_.get(), chunk, sizeof chunk, MSG_DONTWAIT);
    if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) {
            return false;
        }
        finish();
        return false;
    }
    if (n == 0) {
        finish();
        return false;
    }
    in_.append(chunk, n);
    qsizetype newline;
    while (fd_ && (newline = in_.indexOf('\n')) >= 0) {
        const QByteArray line = in_.left(newline);
        in_.remove(0, newline + 1);
        if (line.size() > maxMessage_) {
            break;
        }
        deliver(line);
    }
    if (in_.size() > maxMessage_) {
        emit protocolError(QStringLiteral("a line over %1 bytes").arg(maxMessage_));
        finish();
        return false;
    }
    return true;
}

void JsonChannel::deliver(const QByteArray& bytes)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        emit protocolError(QStringLiteral("a message that is not a JSON object was dropped"));
        return;
    }
    emit received(document.object());
}

void JsonChannel::close()
{
    readNotifier_.reset();
    writeNotifier_.reset();
    fd_.reset();
}

void JsonChannel::finish()
{
    close();
    if (!closedEmitted_) {
        closedEmitted_ = true;
        emit closed();
    }
}

}  // namespace moat::helper
