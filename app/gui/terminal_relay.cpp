// SPDX-License-Identifier: Apache-2.0
#include "terminal_relay.h"

#include "attach_leftovers.h"
#include "pty_process.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTimer>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace moat::gui {

namespace {

// The end of the output so far that a new client sees first: enough for the
// last screens, small enough to arrive at once.
constexpr qsizetype kReplayed = 64 * 1024;
// A client that does not read its last frames is let go after this long.
constexpr int kClosingMs = 5000;

QString errnoText()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// Why: a session's terminal is a way into the sandboxed agent and, through
// its output, into the user's workspace. The directory (0700) and the socket
// (0600) already keep other users out, but modes are one mistake away from
// open (a copied path, a chmod, a shared temporary directory); the uid the
// kernel recorded for the connecting process cannot be widened by any file
// mode, so it is what decides. Root is another uid here too.
bool peerIsThisUser(const QLocalSocket* socket, qint64* peerUid)
{
    ucred credentials{};
    socklen_t size = sizeof credentials;
    if (::getsockopt(static_cast<int>(socket->socketDescriptor()), SOL_SOCKET, SO_PEERCRED, &credentials, &size) !=
        0) {
        *peerUid = -1;
        return false;
    }
    *peerUid = credentials.uid;
    return credentials.uid == ::getuid();
}

QByteArray replayed(QByteArray history)
{
    if (history.size() <= kReplayed) {
        return history;
    }
    history = history.right(kReplayed);
    // Start at a line, not inside a character or an escape sequence.
    const qsizetype newline = history.indexOf('\n');
    return newline >= 0 ? history.mid(newline + 1) : history;
}

}  // namespace

TerminalRelay::TerminalRelay(PtyProcess* terminal, std::function<QByteArray()> history, QObject* parent)
    : QObject(parent), terminal_(terminal), history_(std::move(history))
{
    connect(terminal, &PtyProcess::output, this, [this](const QByteArray& bytes) {
        if (client_ != nullptr) {
            send(client_, attach::encode(attach::FrameType::Data, std::string_view(bytes.constData(), bytes.size())));
        }
    });
    connect(terminal, &PtyProcess::finished, this, &TerminalRelay::endSession);
}

TerminalRelay::~TerminalRelay()
{
    removeFiles();
}

bool TerminalRelay::isListening() const
{
    return server_ != nullptr && server_->isListening();
}

bool TerminalRelay::listen(QString* error)
{
    if (isListening()) {
        return true;
    }
    QString base = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (base.isEmpty() || !QFileInfo(base).isDir()) {
        base = QDir::tempPath();
    }
    removeAttachLeftovers(base);
    // mkdtemp makes the directory 0700, owned by us, with a name nobody
    // could have taken before (it fails rather than reuse one).
    QByteArray pattern = QFile::encodeName(base + QStringLiteral("/moat-attach-XXXXXX"));
    if (::mkdtemp(pattern.data()) == nullptr) {
        *error = tr("Cannot make a directory for the terminal's socket in %1: %2. Set XDG_RUNTIME_DIR to a "
                    "directory of yours that can be written.")
                     .arg(base, errnoText());
        return false;
    }
    directory_ = QFile::decodeName(pattern);
    socketPath_ = directory_ + QStringLiteral("/socket");
    if (QFile::encodeName(socketPath_).size() >= static_cast<qsizetype>(sizeof(sockaddr_un::sun_path))) {
        *error = tr("The socket path %1 is too long for a unix socket. Set XDG_RUNTIME_DIR (or TMPDIR) to a "
                    "shorter directory.")
                     .arg(socketPath_);
        removeFiles();
        return false;
    }
    ownerLock_ = holdAttachDirectory(directory_);
    if (!ownerLock_) {
        *error = tr("Cannot lock %1: %2").arg(attachLockPath(directory_), errnoText());
        removeFiles();
        return false;
    }
    server_ = new QLocalServer(this);
    server_->setSocketOptions(QLocalServer::UserAccessOption);
    if (!server_->listen(socketPath_)) {
        *error = tr("Cannot listen on %1: %2").arg(socketPath_, server_->errorString());
        removeFiles();
        return false;
    }
    if (::chmod(QFile::encodeName(socketPath_).constData(), 0600) != 0) {
        *error = tr("Cannot make %1 private (mode 0600): %2").arg(socketPath_, errnoText());
        removeFiles();
        return false;
    }
    connect(server_, &QLocalServer::newConnection, this, &TerminalRelay::accept);
    return true;
}

void TerminalRelay::accept()
{
    while (server_ != nullptr && server_->hasPendingConnections()) {
        QLocalSocket* socket = server_->nextPendingConnection();
        socket->setParent(this);
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        qint64 uid = -1;
        if (!peerIsThisUser(socket, &uid)) {
            send(socket, attach::encode(attach::FrameType::Refused,
                                        tr("moat-manager refused the connection: this session belongs to another "
                                           "user.")
                                            .toStdString()));
            dropClient(socket);
            emit clientRefused(uid);
            continue;
        }
        if (client_ != nullptr) {
            QLocalSocket* previous = client_;
            client_ = nullptr;
            send(previous, attach::encode(attach::FrameType::TakenOver,
                                          tr("Another terminal took this session over; it goes on there.")
                                              .toStdString()));
            dropClient(previous);
            emit clientDetached();
        }
        client_ = socket;
        reader_ = attach::FrameReader();
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] { readClient(socket); });
        connect(socket, &QLocalSocket::disconnected, this, [this, socket] {
            if (client_ == socket) {
                client_ = nullptr;
                emit clientDetached();
            }
        });
        const QByteArray history = replayed(history_ ? history_() : QByteArray());
        for (qsizetype at = 0; at < history.size(); at += attach::kMaxPayload) {
            const QByteArray part = history.mid(at, attach::kMaxPayload);
            send(socket, attach::encode(attach::FrameType::Data, std::string_view(part.constData(), part.size())));
        }
        emit clientAttached();
    }
}

void TerminalRelay::readClient(QLocalSocket* socket)
{
    if (socket != client_) {
        return;
    }
    const QByteArray bytes = socket->readAll();
    reader_.feed(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    while (std::optional<attach::Frame> frame = reader_.next()) {
        switch (frame->type) {
        case attach::FrameType::Data:
            if (terminal_ != nullptr) {
                terminal_->write(QByteArray(frame->payload.data(), static_cast<qsizetype>(frame->payload.size())));
            }
            break;
        case attach::FrameType::WindowSize:
            if (const auto size = attach::decodeWindowSize(frame->payload); size && terminal_ != nullptr) {
                terminal_->resize(size->first, size->second);
                emit clientResized(size->first, size->second);
            }
            break;
        default:
            // Only the app sends the other frames: this peer is confused.
            client_ = nullptr;
            dropClient(socket);
            emit clientDetached();
            return;
        }
    }
    if (reader_.broken()) {
        client_ = nullptr;
        dropClient(socket);
        emit clientDetached();
    }
}

void TerminalRelay::send(QLocalSocket* socket, const std::string& frame)
{
    socket->write(frame.data(), static_cast<qint64>(frame.size()));
    socket->flush();
}

void TerminalRelay::dropClient(QLocalSocket* socket)
{
    // Closes once what was written is sent; a client that reads nothing more
    // is cut off a little later.
    socket->disconnectFromServer();
    QTimer::singleShot(kClosingMs, socket, &QLocalSocket::abort);
}

void TerminalRelay::endSession(int exitStatus)
{
    if (client_ != nullptr) {
        QLocalSocket* last = client_;
        client_ = nullptr;
        send(last, attach::encodeEnded(exitStatus));
        dropClient(last);
    }
    removeFiles();
    emit sessionEnded(exitStatus);
}

void TerminalRelay::removeFiles()
{
    if (server_ != nullptr) {
        server_->close();
        delete server_;
        server_ = nullptr;
    }
    if (!socketPath_.isEmpty()) {
        ::unlink(QFile::encodeName(socketPath_).constData());
    }
    if (!directory_.isEmpty()) {
        ::unlink(QFile::encodeName(attachLockPath(directory_)).constData());
        ownerLock_.reset();
        ::rmdir(QFile::encodeName(directory_).constData());
    }
}

}  // namespace moat::gui
