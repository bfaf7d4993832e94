// SPDX-License-Identifier: Apache-2.0
#include "recordingupstream.h"

#include <QJsonDocument>

UpstreamPki::UpstreamPki(AccountRunner* runner)
{
    dir = runner->newDirectory(QStringLiteral("pki"));
    ca = dir + QStringLiteral("/ca.pem");
    cert = dir + QStringLiteral("/server.pem");
    key = dir + QStringLiteral("/server.key");
    const QString script = QStringLiteral(
        "set -e; cd '%1'; "
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem "
        "-days 2 -subj /CN=moat-test-ca 2>/dev/null; "
        "openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout server.key -out server.csr "
        "-subj /CN=127.0.0.1 2>/dev/null; "
        "printf 'subjectAltName=IP:127.0.0.1\\n' > ext; "
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 "
        "-extfile ext 2>/dev/null; chmod 644 *.pem server.key")
                               .arg(dir);
    ok = runner->hostShell(script).succeeded();
}

RecordingUpstream::RecordingUpstream(AccountRunner* runner, const UpstreamPki& pki)
{
    process_ = runner->startHost({QStringLiteral("python3"), QStringLiteral(MOAT_TLS_UPSTREAM), pki.cert, pki.key});
    if (process_->waitForOutput("port ")) {
        const QByteArray out = process_->output();
        const int at = out.indexOf("port ");
        port_ = out.mid(at + 5, out.indexOf('\n', at) - at - 5).trimmed().toInt();
    }
}

QList<QJsonObject> RecordingUpstream::requests()
{
    // QProcess reads only while waiting: give it what the server printed so
    // far (a marker it never prints, for at most 300 ms).
    process_->waitForOutput("\x01no such marker", 300);
    QList<QJsonObject> found;
    for (const QByteArray& line : process_->output().split('\n')) {
        const QJsonObject request = QJsonDocument::fromJson(line).object();
        if (!request.isEmpty()) {
            found.append(request);
        }
    }
    return found;
}

QByteArray RecordingUpstream::output()
{
    return process_->output();
}
