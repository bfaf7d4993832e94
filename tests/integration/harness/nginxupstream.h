// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "accountrunner.h"
#include "backgroundprocess.h"
#include "recordingupstream.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>

// nginx over TLS on the host's loopback, run as the runner's account with a
// private configuration, as the real server a secret is meant for: it
// answers every request with 200 and logs, one JSON line each, the method,
// the path and the headers a secret may travel in (Authorization,
// X-Api-Key). Stopped with the object.
class NginxUpstream {
public:
    static QString binary() { return QStringLiteral("/usr/sbin/nginx"); }
    static bool available() { return QFile::exists(binary()); }

    NginxUpstream(AccountRunner* runner, const UpstreamPki& pki);

    // Empty when nginx runs; else what went wrong.
    QString problem() const { return problem_; }
    QString authority() const { return QStringLiteral("127.0.0.1:%1").arg(port_); }
    QString url(const QString& path) const { return QStringLiteral("https://127.0.0.1:%1%2").arg(port_).arg(path); }
    // What the access log holds so far, oldest first.
    QList<QJsonObject> requests() const;
    QByteArray accessLog() const;

private:
    std::unique_ptr<BackgroundProcess> process_;
    QString dir_;
    int port_ = 0;
    QString problem_;
};
