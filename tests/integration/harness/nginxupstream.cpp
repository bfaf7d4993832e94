// SPDX-License-Identifier: Apache-2.0
#include "nginxupstream.h"

#include "loopbackport.h"

#include <QFile>
#include <QJsonDocument>
#include <QThread>

NginxUpstream::NginxUpstream(AccountRunner* runner, const UpstreamPki& pki)
{
    if (!available()) {
        problem_ = binary() + QStringLiteral(" is missing (scripts/install-deps.sh installs nginx-light)");
        return;
    }
    dir_ = runner->newDirectory(QStringLiteral("nginx"));
    port_ = LoopbackPort::pickFree(LoopbackPort::Protocol::Tcp);
    const QString config = QStringLiteral(
        "pid %1/nginx.pid;\n"
        "error_log %1/error.log;\n"
        "events { worker_connections 64; }\n"
        "http {\n"
        "  log_format headers escape=json '{\"method\":\"$request_method\",\"path\":\"$request_uri\","
        "\"authorization\":\"$http_authorization\",\"x_api_key\":\"$http_x_api_key\"}';\n"
        "  access_log %1/access.log headers;\n"
        "  client_body_temp_path %1/body; proxy_temp_path %1/proxy; fastcgi_temp_path %1/fastcgi;\n"
        "  uwsgi_temp_path %1/uwsgi; scgi_temp_path %1/scgi;\n"
        "  server {\n"
        "    listen 127.0.0.1:%2 ssl;\n"
        "    ssl_certificate %3;\n"
        "    ssl_certificate_key %4;\n"
        "    location / { default_type text/plain; return 200 \"nginx saw $request_method $uri\\n\"; }\n"
        "  }\n"
        "}\n")
                               .arg(dir_)
                               .arg(port_)
                               .arg(pki.cert, pki.key);
    const ProcessResult written = runner->hostShell(QStringLiteral("cat > '%1/nginx.conf' <<'EOF'\n%2EOF\n").arg(dir_, config));
    if (!written.succeeded()) {
        problem_ = QStringLiteral("cannot write nginx.conf: ") + written.describe();
        return;
    }
    process_ = runner->startHost({binary(), QStringLiteral("-p"), dir_, QStringLiteral("-e"), dir_ + "/error.log",
                                  QStringLiteral("-c"), dir_ + QStringLiteral("/nginx.conf"), QStringLiteral("-g"),
                                  QStringLiteral("daemon off; master_process off;")});
    // Ready once the pid file is there (written after the sockets are bound).
    for (int i = 0; i < 100 && !QFile::exists(dir_ + QStringLiteral("/nginx.pid")); ++i) {
        if (!process_->isRunning()) {
            break;
        }
        QThread::msleep(50);
    }
    if (!QFile::exists(dir_ + QStringLiteral("/nginx.pid"))) {
        QFile errors(dir_ + QStringLiteral("/error.log"));
        (void)errors.open(QIODevice::ReadOnly);
        problem_ = QStringLiteral("nginx did not start: ") + QString::fromUtf8(process_->output() + errors.readAll());
    }
}

QByteArray NginxUpstream::accessLog() const
{
    QFile log(dir_ + QStringLiteral("/access.log"));
    return log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
}

QList<QJsonObject> NginxUpstream::requests() const
{
    QList<QJsonObject> found;
    for (const QByteArray& line : accessLog().split('\n')) {
        const QJsonObject request = QJsonDocument::fromJson(line).object();
        if (!request.isEmpty()) {
            found.append(request);
        }
    }
    return found;
}
