// SPDX-License-Identifier: Apache-2.0
// What the probe's file checks report, on real files in a temporary home:
// credential files by path, never by contents; private SSH keys but not
// their .pub halves; resolv.conf nameservers; and whether a directory (or the
// parent that would hold it) is within the user's reach.
#include "probe/machine_checks.h"
#include "probe/network_checks.h"
#include "probe/secret_checks.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

void writeFile(const QString& path, const QByteArray& contents)
{
    QVERIFY(QDir().mkpath(QFileInfo(path).path()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(contents);
}

}  // namespace

class ProbeReadsFilesNotContents : public QObject {
    Q_OBJECT

private slots:
    void credentialFilesByPathOnly()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        writeFile(home.filePath(".aws/credentials"), "aws_secret_access_key = CONTENT-MUST-NOT-APPEAR\n");
        writeFile(home.filePath(".ssh/id_ed25519"), "CONTENT-MUST-NOT-APPEAR");
        writeFile(home.filePath(".ssh/id_ed25519.pub"), "ssh-ed25519 AAAA");
        writeFile(home.filePath(".ssh/known_hosts"), "");

        const auto check = moat::probe::credentialFiles(home.path().toStdString());
        QVERIFY(!check.ok);
        QCOMPARE(check.value, 2L);
        const QString detail = QString::fromStdString(check.detail);
        QVERIFY2(detail.contains(home.filePath(".aws/credentials")), qPrintable(detail));
        QVERIFY2(detail.contains(home.filePath(".ssh/id_ed25519")), qPrintable(detail));
        QVERIFY2(!detail.contains(".pub"), qPrintable(detail));
        QVERIFY2(!detail.contains("known_hosts"), qPrintable(detail));
        QVERIFY2(!detail.contains("CONTENT-MUST-NOT-APPEAR"), qPrintable(detail));
    }

    void anEmptyHomeHasNoCredentials()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const auto files = moat::probe::credentialFiles(home.path().toStdString());
        QVERIFY(files.ok);
        QCOMPARE(files.value, 0L);
        QVERIFY(moat::probe::platformTokens(home.path().toStdString()).ok ||
                QFile::exists("/var/run/secrets/kubernetes.io/serviceaccount/token"));
    }

    void kubeconfigIsAPlatformToken()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        writeFile(home.filePath(".kube/config"), "token: CONTENT-MUST-NOT-APPEAR");
        const auto check = moat::probe::platformTokens(home.path().toStdString());
        QVERIFY(!check.ok);
        QVERIFY(check.detail.find(".kube/config") != std::string::npos);
        QVERIFY(check.detail.find("CONTENT-MUST-NOT-APPEAR") == std::string::npos);
    }

    void nameserversOfResolvConf()
    {
        const auto servers = moat::probe::nameservers("# nameserver 9.9.9.9\n"
                                                      "search example.com\n"
                                                      "nameserver 127.0.0.53\n"
                                                      "options edns0\n"
                                                      "nameserver\tfe80::1%eth0\n"
                                                      "nameserver 10.0.0.1 # trailing\n"
                                                      "nameserver\n");
        QCOMPARE(servers, (std::vector<std::string>{"127.0.0.53", "fe80::1", "10.0.0.1"}));
    }

    void aWritableDirectoryIsReachable()
    {
        QTemporaryDir base;
        QVERIFY(base.isValid());
        const auto existing = moat::probe::directoryReach("records_reachable", base.path().toStdString());
        QVERIFY(!existing.ok);
        QCOMPARE(existing.value, 2L);
        // Absent, but creatable in a writable parent: as reachable as if it were there.
        const auto absent = moat::probe::directoryReach("records_reachable", base.filePath("a/b/moat").toStdString());
        QVERIFY(!absent.ok);
        QCOMPARE(absent.value, 2L);
        QVERIFY(absent.detail.find("nearest parent " + base.path().toStdString()) != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(ProbeReadsFilesNotContents)
#include "tst_probe_reads_files_not_contents.moc"
