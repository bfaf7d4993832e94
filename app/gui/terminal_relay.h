// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "attach_protocol.h"
#include "base/unique_fd.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QLocalServer;
class QLocalSocket;

namespace moat::gui {

class PtyProcess;

// Lends a session's terminal, which this application holds (PtyProcess), to
// one `moat-manager --attach SOCKET` client at a time, so that the session
// can be used from the user's own terminal emulator ("Open in terminal").
//
// listen() makes a fresh directory (0700) under $XDG_RUNTIME_DIR, or under
// the temporary directory when that is not set, and a socket in it (0600).
// Only a client of this user's uid is served; another uid is refused. A
// second client of this user takes the terminal over: the first is told so
// and let go (the user pressed the button again; the older window may be
// lost behind others). The client first gets the output so far, then the
// output as it comes; what it types goes to the terminal, its window size
// becomes the terminal's. The application's own Output tab keeps working.
//
// When the session ends, the client is told its exit status; the socket and
// its directory are removed then, or when this object is destroyed
// (the application quits), whichever comes first; what a crashed application
// left is removed by the next listen(). Frames: attach_protocol.h.
class TerminalRelay : public QObject
{
    Q_OBJECT
public:
    // history: the output so far (the last part of it is replayed to each
    // client). terminal must outlive this object or be destroyed first.
    TerminalRelay(PtyProcess* terminal, std::function<QByteArray()> history, QObject* parent = nullptr);
    ~TerminalRelay() override;

    // Makes the directory and the socket and starts listening. false with
    // *error (what failed and why) otherwise; nothing is left behind then.
    bool listen(QString* error);
    QString socketPath() const { return socketPath_; }
    QString directory() const { return directory_; }
    bool isListening() const;
    bool hasClient() const { return client_ != nullptr; }

signals:
    void clientAttached();
    void clientDetached();
    // A connection from another uid was refused.
    void clientRefused(qint64 uid);
    // The client set the terminal's size.
    void clientResized(int rows, int columns);
    // The session ended; its client was told, the socket and directory are gone.
    void sessionEnded(int exitStatus);

private:
    void accept();
    void readClient(QLocalSocket* socket);
    void dropClient(QLocalSocket* socket);
    void send(QLocalSocket* socket, const std::string& frame);
    void endSession(int exitStatus);
    void removeFiles();

    QPointer<PtyProcess> terminal_;
    std::function<QByteArray()> history_;
    QLocalServer* server_ = nullptr;
    QLocalSocket* client_ = nullptr;
    attach::FrameReader reader_;
    QString directory_;
    QString socketPath_;
    // Held while the directory is in use: a crashed application's directory
    // is then known as a leftover (attach_leftovers.h).
    UniqueFd ownerLock_;
};

}  // namespace moat::gui
