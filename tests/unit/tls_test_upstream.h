// SPDX-License-Identifier: Apache-2.0
#pragma once

// The real pieces the TLS interception tests run against: a test CA and
// server certificates made with the openssl command, an HTTPS upstream
// (python3's http.server, tls_upstream.py) that prints what it received, and
// curl / openssl s_client as the sandbox's clients.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <string>

namespace tls_rig {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline Run run(const QString& program, const QStringList& arguments, const QByteArray& input = {}, int timeoutMs = 30000)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy",
                             "NO_PROXY", "no_proxy", "SSL_CERT_FILE", "CURL_CA_BUNDLE"}) {
        environment.remove(name);
    }
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    Run result;
    if (!process.waitForStarted(5000)) {
        result.err = "cannot start " + program.toUtf8();
        return result;
    }
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// A test CA and leaves for 127.0.0.1, all P-256, in a temporary directory.
class Certificates {
public:
    Certificates()
    {
        ok_ = dir_.isValid() &&
              openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                       path("ca.key"), "-out", path("ca.pem"), "-subj", "/CN=moat test upstream CA", "-days", "2",
                       "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"}) &&
              signedLeaf("good", "IP:127.0.0.1") && signedLeaf("wrong-name", "IP:127.0.0.2,DNS:other.test") &&
              signedLeaf("named", "DNS:upstream.test") &&
              openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                       path("self-signed.key"), "-out", path("self-signed.pem"), "-subj", "/CN=127.0.0.1", "-days",
                       "1", "-addext", "subjectAltName=IP:127.0.0.1"});
    }

    bool ok() const { return ok_; }
    QString path(const QString& name) const { return dir_.filePath(name); }
    QString caFile() const { return path("ca.pem"); }
    QString certificate(const QString& leaf) const { return path(leaf + ".pem"); }
    QString key(const QString& leaf) const { return path(leaf + ".key"); }

    // Writes bytes to a file in the directory (the session CA, for curl).
    QString write(const QString& name, const std::string& bytes) const
    {
        QFile file(path(name));
        file.open(QIODevice::WriteOnly);
        file.write(bytes.data(), static_cast<qint64>(bytes.size()));
        return file.fileName();
    }

private:
    bool openssl(const QStringList& arguments)
    {
        const Run result = run("openssl", arguments);
        if (result.exitCode != 0) {
            qWarning("openssl %s failed: %s", qPrintable(arguments.join(' ')), result.err.constData());
        }
        return result.exitCode == 0;
    }

    bool signedLeaf(const QString& name, const QString& altNames)
    {
        QFile extensions(path(name + ".ext"));
        extensions.open(QIODevice::WriteOnly);
        extensions.write("basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=" + altNames.toUtf8() +
                         "\n");
        extensions.close();
        return openssl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                        key(name), "-out", path(name + ".csr"), "-subj", "/CN=" + name}) &&
               openssl({"x509", "-req", "-in", path(name + ".csr"), "-CA", caFile(), "-CAkey", path("ca.key"),
                        "-CAcreateserial", "-out", certificate(name), "-days", "1", "-extfile",
                        extensions.fileName()});
    }

    QTemporaryDir dir_;
    bool ok_ = false;
};

// tls_upstream.py with one certificate, on its own port, until destroyed.
class Upstream {
public:
    Upstream(const QString& certificate, const QString& key)
    {
        process_.setProcessChannelMode(QProcess::SeparateChannels);
        process_.start("python3", {TLS_UPSTREAM_SCRIPT, certificate, key});
        if (process_.waitForStarted(5000) && process_.waitForReadyRead(10000)) {
            const QByteArray line = process_.readLine().trimmed();
            if (line.startsWith("port ")) {
                port_ = static_cast<std::uint16_t>(line.mid(5).toUInt());
            }
        }
    }
    ~Upstream()
    {
        process_.kill();
        process_.waitForFinished(5000);
    }

    std::uint16_t port() const { return port_; }
    std::string authority() const { return "127.0.0.1:" + std::to_string(port_); }

    // Every request the upstream received so far, one JSON object each.
    QList<QJsonObject> requests()
    {
        process_.waitForReadyRead(200);
        buffered_ += process_.readAllStandardOutput();
        QList<QJsonObject> seen;
        for (const QByteArray& line : buffered_.split('\n')) {
            if (!line.trimmed().isEmpty()) {
                seen.append(QJsonDocument::fromJson(line).object());
            }
        }
        return seen;
    }

    // The value of a header in a request (empty when absent).
    static QString header(const QJsonObject& request, const QString& name)
    {
        for (const auto& pair : request["headers"].toArray()) {
            if (pair.toArray()[0].toString().compare(name, Qt::CaseInsensitive) == 0) {
                return pair.toArray()[1].toString();
            }
        }
        return {};
    }

private:
    QProcess process_;
    std::uint16_t port_ = 0;
    QByteArray buffered_;
};

}  // namespace tls_rig
