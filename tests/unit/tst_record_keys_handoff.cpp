// SPDX-License-Identifier: Apache-2.0
// A user's record keys survive the two ways they travel: as text (the
// keychain entry, the key file) and as the sealed memfd `moat run` hands to
// moat-supervisor. In memory they stay out of every child process: sandbox
// init is a fork-like clone of the supervisor and must find zeros.
#include "audit/record_keys.h"

#include <QTest>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

using moat::RecordKeys;

namespace {

QByteArray bytes(const unsigned char* data, size_t size)
{
    return QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
}

}  // namespace

class RecordKeysHandoff : public QObject {
    Q_OBJECT

private slots:
    void generatedKeysAreRandomAndNamedByTheirPublicKey()
    {
        auto first = RecordKeys::generate();
        auto second = RecordKeys::generate();
        QVERIFY(first.ok() && second.ok());
        QCOMPARE(first->id().size(), size_t(16));
        QVERIFY(first->id() != second->id());
        QVERIFY(bytes(first->hmacKey(), 32) != bytes(second->hmacKey(), 32));
        QVERIFY(bytes(first->hmacKey(), 32) != QByteArray(32, '\0'));
    }

    void textRoundTrip()
    {
        auto keys = RecordKeys::generate();
        QVERIFY(keys.ok());
        std::string text = keys->toText();
        QVERIFY(QString::fromStdString(text).startsWith("moat-record-keys-v1 "));
        auto back = RecordKeys::fromText(text);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message().c_str());
        QCOMPARE(back->id(), keys->id());
        QCOMPARE(bytes(back->hmacKey(), 32), bytes(keys->hmacKey(), 32));
        QCOMPARE(bytes(back->signingSeed(), 32), bytes(keys->signingSeed(), 32));
        RecordKeys::wipe(text);
        QVERIFY(text.empty());
    }

    void malformedTextIsRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        const QByteArray hex64(64, 'a');
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("no prefix") << QByteArray(hex64 + " " + hex64);
        QTest::newRow("other version") << QByteArray("moat-record-keys-v2 " + hex64 + " " + hex64);
        QTest::newRow("one key") << QByteArray("moat-record-keys-v1 " + hex64);
        QTest::newRow("short key") << QByteArray("moat-record-keys-v1 " + hex64.left(62) + " " + hex64);
        QTest::newRow("not hex") << QByteArray("moat-record-keys-v1 " + QByteArray(64, 'z') + " " + hex64);
    }

    void malformedTextIsRefused()
    {
        QFETCH(QByteArray, text);
        const auto keys = RecordKeys::fromText(text.toStdString());
        QVERIFY(!keys.ok());
        QVERIFY(!keys.error().hint.empty());
    }

    void sealedMemfdRoundTrip()
    {
        auto keys = RecordKeys::generate();
        QVERIFY(keys.ok());
        keys->setLocation("/home/someone/.config/moat/record-keys");
        auto fd = keys->toSealedMemfd();
        QVERIFY2(fd.ok(), fd.ok() ? "" : fd.error().message().c_str());

        // Meant to cross one exec; sealed against any change.
        QCOMPARE(::fcntl(fd->get(), F_GETFD) & FD_CLOEXEC, 0);
        QVERIFY(::write(fd->get(), "x", 1) < 0);
        QVERIFY(::ftruncate(fd->get(), 0) != 0);

        auto back = RecordKeys::readFrom(fd->get());
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message().c_str());
        QCOMPARE(back->id(), keys->id());
        QCOMPARE(back->location(), keys->location());
        QCOMPARE(bytes(back->hmacKey(), 32), bytes(keys->hmacKey(), 32));
        QCOMPARE(bytes(back->signingSeed(), 32), bytes(keys->signingSeed(), 32));
    }

    void aHandoffFromSomethingElseIsRefused()
    {
        int pipeFds[2];
        QCOMPARE(::pipe(pipeFds), 0);
        const char junk[] =
            "{\"spec\": \"not keys\", \"padding\": \"................................................\"}";
        QVERIFY(::write(pipeFds[1], junk, sizeof junk) == static_cast<ssize_t>(sizeof junk));
        ::close(pipeFds[1]);
        const auto keys = RecordKeys::readFrom(pipeFds[0]);
        ::close(pipeFds[0]);
        QVERIFY(!keys.ok());
    }

    void childProcessesFindNoKeys()
    {
        auto keys = RecordKeys::generate();
        QVERIFY(keys.ok());
        QVERIFY(bytes(keys->hmacKey(), 32) != QByteArray(32, '\0'));
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // The page is there in the child, zero-filled (MADV_WIPEONFORK).
            const unsigned char zeros[64] = {};
            const bool wiped =
                std::memcmp(keys->hmacKey(), zeros, 32) == 0 && std::memcmp(keys->signingSeed(), zeros, 32) == 0;
            ::_exit(wiped ? 0 : 1);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        // And the parent keeps them.
        QVERIFY(bytes(keys->hmacKey(), 32) != QByteArray(32, '\0'));
    }
};

QTEST_GUILESS_MAIN(RecordKeysHandoff)
#include "tst_record_keys_handoff.moc"
