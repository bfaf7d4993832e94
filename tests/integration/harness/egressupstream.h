// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>
#include <memory>

#include "backgroundprocess.h"

class MoatInstall;
class TestCertificates;

// The destinations of the egress tests: tests/tools/egress-upstream.py on the
// host's 127.0.0.1 (and ::1), run by the test process, with a bare git
// repository to clone and a directory of files to serve (staticDir()). See
// that script for what each port answers.
//
// The upstream writes a line for everything that reaches it (a request, a
// TLS handshake with its SNI, a datagram) to a log file, so that a test can
// prove that a refused attempt never arrived: give each attempt a path of
// its own (uniquePath) and ask arrived() afterwards.
class EgressUpstream {
public:
    struct Ports {
        int http = 0;
        int http6 = 0;  // the same port on ::1, 0 when the host has no IPv6 loopback
        int alt = 0;    // a second plain HTTP port, on 127.0.0.1 and ::1 like http
        int alt6 = 0;
        int https = 0;
        int silent = 0;  // accepts and never answers
        int udp = 0;     // UDP echo
    };

    EgressUpstream();
    ~EgressUpstream();
    EgressUpstream(const EgressUpstream&) = delete;
    EgressUpstream& operator=(const EgressUpstream&) = delete;

    bool start(const MoatInstall& install, const TestCertificates& certificates, QString* error);

    const Ports& ports() const { return ports_; }
    // In every echo: a test that sees it reached this upstream.
    QByteArray marker() const { return marker_; }
    // The repository is served at /repo.git; its README.txt holds this.
    static QString repositoryPath() { return QStringLiteral("/repo.git"); }
    QByteArray repositoryContent() const { return "moat egress test repository " + marker_; }
    // Files written here are served at the same path on every HTTP port (a
    // directory: its index.html or index.json), from the next request on.
    // Owned by the test process, not readable by other accounts.
    QString staticDir() const;

    // "http://HOST:PORT/PATH" (HOST as given: a name, a dotted quad, "[::1]").
    static QString url(const QString& scheme, const QString& host, int port, const QString& path = QString());
    // "/LABEL-<random>": a path nobody else asks for.
    static QString uniquePath(const QString& label);

    // Everything the upstream logged so far.
    QByteArray log() const;
    // How many log lines contain `needle`.
    int count(const QByteArray& needle) const;
    // Whether a request for `path` (with or without a query) arrived.
    bool arrived(const QString& path) const;

private:
    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<BackgroundProcess> process_;
    Ports ports_;
    QByteArray marker_;
};
