// SPDX-License-Identifier: Apache-2.0
#include "testcertificates.h"

#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>

#include "subprocess.h"

namespace {

bool runOpenssl(const QString& dir, const QStringList& args, QString* error)
{
    Subprocess::Request request;
    request.argv = QStringList{TestCertificates::openssl()} + args;
    request.environment = QProcessEnvironment::systemEnvironment();
    request.workingDirectory = dir;
    const ProcessResult result = Subprocess::run(request);
    if (!result.succeeded()) {
        *error = result.describe();
        return false;
    }
    return true;
}

}  // namespace

TestCertificates::TestCertificates() = default;
TestCertificates::~TestCertificates() = default;

bool TestCertificates::available()
{
    return QFileInfo(openssl()).isExecutable();
}

QString TestCertificates::dir() const
{
    return dir_ ? dir_->path() : QString();
}

bool TestCertificates::create(QString* error)
{
    dir_ = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/moat-it-tls-XXXXXX"));
    if (!dir_->isValid()) {
        *error = QStringLiteral("cannot create a temporary directory: %1").arg(dir_->errorString());
        return false;
    }
    const auto readable = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
    const auto traversable = readable | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther;
    if (!QFile::setPermissions(dir(), traversable)) {
        *error = QStringLiteral("cannot chmod 0755 %1").arg(dir());
        return false;
    }
    // EC keys: made in milliseconds, unlike RSA.
    const QStringList ecKey{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                            QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    QFile extensions(dir() + QStringLiteral("/server.ext"));
    if (!extensions.open(QIODevice::WriteOnly) || extensions.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                                                                   "basicConstraints=critical,CA:FALSE\n"
                                                                   "keyUsage=critical,digitalSignature\n"
                                                                   "extendedKeyUsage=serverAuth\n") < 0) {
        *error = QStringLiteral("cannot write %1").arg(extensions.fileName());
        return false;
    }
    extensions.close();
    const bool made =
        runOpenssl(dir(),
                   QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ecKey +
                       QStringList{QStringLiteral("-keyout"), QStringLiteral("ca.key"), QStringLiteral("-out"),
                                   QStringLiteral("ca.pem"), QStringLiteral("-days"), QStringLiteral("2"),
                                   QStringLiteral("-subj"), QStringLiteral("/CN=moat integration test CA"),
                                   QStringLiteral("-addext"), QStringLiteral("basicConstraints=critical,CA:TRUE"),
                                   QStringLiteral("-addext"), QStringLiteral("keyUsage=critical,keyCertSign,cRLSign")},
                   error) &&
        runOpenssl(
            dir(),
            QStringList{QStringLiteral("req")} + ecKey +
                QStringList{QStringLiteral("-keyout"), QStringLiteral("server.key"), QStringLiteral("-out"),
                            QStringLiteral("server.csr"), QStringLiteral("-subj"), QStringLiteral("/CN=localhost")},
            error) &&
        runOpenssl(dir(),
                   {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), QStringLiteral("server.csr"),
                    QStringLiteral("-CA"), QStringLiteral("ca.pem"), QStringLiteral("-CAkey"), QStringLiteral("ca.key"),
                    QStringLiteral("-set_serial"), QStringLiteral("2"), QStringLiteral("-days"), QStringLiteral("2"),
                    QStringLiteral("-extfile"), QStringLiteral("server.ext"), QStringLiteral("-out"),
                    QStringLiteral("server.pem")},
                   error);
    if (!made) {
        return false;
    }
    const auto secret = QFile::ReadOwner | QFile::WriteOwner;
    for (const char* name : {"ca.key", "server.key"}) {
        if (!QFile::setPermissions(dir() + QLatin1Char('/') + QLatin1String(name), secret)) {
            *error = QStringLiteral("cannot chmod 0600 %1").arg(QLatin1String(name));
            return false;
        }
    }
    for (const char* name : {"ca.pem", "server.pem"}) {
        if (!QFile::setPermissions(dir() + QLatin1Char('/') + QLatin1String(name), readable)) {
            *error = QStringLiteral("cannot chmod 0644 %1").arg(QLatin1String(name));
            return false;
        }
    }
    return true;
}
