// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QTemporaryDir>
#include <memory>

// A throwaway certificate authority and one server certificate it signed, for
// the name "localhost" and the address 127.0.0.1, made with the openssl
// command in a new directory /tmp/moat-it-tls-XXXXXX. The directory and the
// certificates are world-readable (a sandbox sees them with `--ro dir()`, and
// its clients trust the CA with `curl --cacert`, GIT_SSL_CAINFO or
// ssl.create_default_context(cafile=...)); the keys are 0600, for the test
// process's own server. Valid for two days; removed with the object.
class TestCertificates {
public:
    TestCertificates();
    ~TestCertificates();
    TestCertificates(const TestCertificates&) = delete;
    TestCertificates& operator=(const TestCertificates&) = delete;

    static QString openssl() { return QStringLiteral("/usr/bin/openssl"); }
    static bool available();

    bool create(QString* error);

    QString dir() const;
    QString caFile() const { return dir() + QStringLiteral("/ca.pem"); }
    QString certificateFile() const { return dir() + QStringLiteral("/server.pem"); }
    QString keyFile() const { return dir() + QStringLiteral("/server.key"); }

private:
    std::unique_ptr<QTemporaryDir> dir_;
};
