// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "accountrunner.h"
#include "backgroundprocess.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>

// A test CA and a certificate for 127.0.0.1 it signed, made with the openssl
// command in a directory of the runner's account (readable by it, so that
// the account's own server can use the key).
struct UpstreamPki {
    QString dir;
    QString ca, cert, key;
    bool ok = false;

    explicit UpstreamPki(AccountRunner* runner);
};

// A TLS server on the host's loopback that records what it receives:
// tests/unit/tls_upstream.py, run as the runner's account. It answers every
// request with 200 and "upstream saw METHOD PATH", and prints one JSON line
// per request (method, path, headers, body).
class RecordingUpstream {
public:
    RecordingUpstream(AccountRunner* runner, const UpstreamPki& pki);

    int port() const { return port_; }
    QString authority() const { return QStringLiteral("127.0.0.1:%1").arg(port_); }
    QString url(const QString& path) const { return QStringLiteral("https://127.0.0.1:%1%2").arg(port_).arg(path); }
    // Every request received so far, oldest first.
    QList<QJsonObject> requests();
    QByteArray output();

private:
    std::unique_ptr<BackgroundProcess> process_;
    int port_ = 0;
};
