// SPDX-License-Identifier: Apache-2.0
// Without a reachable keychain (no D-Bus session bus), moat keeps the record
// keys in one key file: made once, private (0600 in a 0700 directory it
// made), announced once, found again by the id a log names, and refused when
// anyone else could read it. The real keychain is exercised by the
// integration tests (tst_audit_records), against a private gnome-keyring.
#include "record_key_store.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <cstdlib>

using moat::MoatPaths;
using moat::keychain::RecordKeyStore;

namespace {

mode_t modeOf(const QString& path)
{
    struct stat info {};
    return ::stat(path.toLocal8Bit().constData(), &info) == 0 ? info.st_mode & 07777 : mode_t(-1);
}

}  // namespace

class RecordKeyFileFallback : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    int configs_ = 0;

    MoatPaths freshPaths()
    {
        const QString base = tmp_.filePath(QString::number(++configs_));
        return MoatPaths{(base + "/config/moat").toStdString(), (base + "/state").toStdString(),
                         (base + "/data").toStdString(), (base + "/run").toStdString()};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        // No session bus: neither an address nor a bus socket in the runtime dir.
        ::unsetenv("DBUS_SESSION_BUS_ADDRESS");
        ::setenv("XDG_RUNTIME_DIR", tmp_.path().toLocal8Bit().constData(), 1);
    }

    void theKeyFileIsMadeOnceAndPrivate()
    {
        const MoatPaths paths = freshPaths();
        RecordKeyStore store(paths);
        auto first = store.keysForNewSession();
        QVERIFY2(first.ok(), first.ok() ? "" : first.error().message().c_str());
        const QString file = QString::fromStdString(paths.configDir) + "/record-keys";
        QCOMPARE(QString::fromStdString(store.keyFilePath()), file);
        QCOMPARE(QString::fromStdString(first->keys.location()), file);
        QCOMPARE(modeOf(file), mode_t(0600));
        QCOMPARE(modeOf(QString::fromStdString(paths.configDir)), mode_t(0700));
        const QString notice = QString::fromStdString(first->notice);
        QVERIFY2(notice.contains("no keychain is reachable") && notice.contains("DBUS_SESSION_BUS_ADDRESS") &&
                     notice.contains(file),
                 qPrintable(notice));
        QVERIFY(store.keychainProblem().has_value());

        // The next session, from another moat: the same keys, nothing to announce.
        RecordKeyStore again(paths);
        auto second = again.keysForNewSession();
        QVERIFY(second.ok());
        QCOMPARE(second->keys.id(), first->keys.id());
        QVERIFY(second->notice.empty());
    }

    void keysAreFoundAgainByTheIdALogNames()
    {
        const MoatPaths paths = freshPaths();
        RecordKeyStore store(paths);
        auto made = store.keysForNewSession();
        QVERIFY(made.ok());
        const std::string id = made->keys.id();

        RecordKeyStore verifier(paths);
        auto found = verifier.keysById(id);
        QVERIFY2(found.ok(), found.ok() ? "" : found.error().message().c_str());
        QCOMPARE(found.value()->id(), id);
        QCOMPARE(QByteArray(reinterpret_cast<const char*>(found.value()->hmacKey()), 32),
                 QByteArray(reinterpret_cast<const char*>(made->keys.hmacKey()), 32));

        auto unknown = verifier.keysById("0123456789abcdef");
        QVERIFY(!unknown.ok());
        const QString message = QString::fromStdString(unknown.error().message());
        QVERIFY2(message.contains("0123456789abcdef") && message.contains("keychain is not reachable") &&
                     message.contains(QString::fromStdString(id)),
                 qPrintable(message));
    }

    void aKeyFileOthersCanReadIsRefused()
    {
        const MoatPaths paths = freshPaths();
        {
            RecordKeyStore store(paths);
            QVERIFY(store.keysForNewSession().ok());
        }
        const QString file = QString::fromStdString(paths.configDir) + "/record-keys";
        QCOMPARE(::chmod(file.toLocal8Bit().constData(), 0644), 0);
        RecordKeyStore store(paths);
        auto refused = store.keysForNewSession();
        QVERIFY(!refused.ok());
        const QString message = QString::fromStdString(refused.error().message());
        QVERIFY2(message.contains("not private") && message.contains("chmod 600"), qPrintable(message));
        QVERIFY(!store.keysById("0123456789abcdef").ok());
    }

    void aDamagedKeyFileIsAnErrorNotANewKey()
    {
        const MoatPaths paths = freshPaths();
        const QString file = QString::fromStdString(paths.configDir) + "/record-keys";
        QVERIFY(QDir().mkpath(QString::fromStdString(paths.configDir)));
        QFile damaged(file);
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        damaged.write("moat-record-keys-v1 not-hex\n");
        damaged.close();
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner));
        RecordKeyStore store(paths);
        auto refused = store.keysForNewSession();
        QVERIFY(!refused.ok());
        QVERIFY2(QString::fromStdString(refused.error().message()).contains("damaged"),
                 refused.error().message().c_str());
        QCOMPARE(QFile(file).size(), qint64(28));  // left as it was
    }
};

QTEST_GUILESS_MAIN(RecordKeyFileFallback)
#include "tst_record_key_file_fallback.moc"
