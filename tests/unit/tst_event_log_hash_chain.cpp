// SPDX-License-Identifier: Apache-2.0
// events.jsonl is one JSON object a line, numbered from 1, each carrying the
// SHA-256 of the line before it as written, so that an edited or removed line
// breaks the chain, and ending in the HMAC of everything before it under the
// user's record key. The end is signed into events.seal. The --json-events
// mirror holds the very same lines.
#include "audit/event_log.h"
#include "audit/event_seal.h"
#include "audit/hmac_sha256.h"
#include "audit/record_keys.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using moat::EventLog;
using moat::EventSeal;
using moat::HmacSha256;
using moat::RecordKeys;
using nlohmann::json;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

}  // namespace

class EventLogHashChain : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    std::shared_ptr<const RecordKeys> keys_;

    moat::Result<EventLog> open(const QString& path) const
    {
        return EventLog::open(path.toStdString(), "0123456789abcdef", keys_);
    }

private slots:
    void initTestCase()
    {
        auto keys = RecordKeys::generate();
        QVERIFY(keys.ok());
        keys_ = std::make_shared<const RecordKeys>(std::move(keys.value()));
    }

    void sha256OfKnownVectors_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("digest");

        // FIPS 180-2, appendix B.
        QTest::newRow("abc") << QByteArray("abc")
                             << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QTest::newRow("empty") << QByteArray() << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        QTest::newRow("two blocks") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                    << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
        QTest::newRow("NUL inside") << QByteArray("a\0b", 3)
                                    << QString::fromLatin1(
                                           QCryptographicHash::hash(QByteArray("a\0b", 3), QCryptographicHash::Sha256)
                                               .toHex());
    }

    void sha256OfKnownVectors()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, digest);
        QCOMPARE(QString::fromStdString(EventLog::sha256Hex(input.toStdString())), digest);
    }

    void linesFormAHashChain_data()
    {
        QTest::addColumn<int>("count");
        QTest::newRow("one event") << 1;
        QTest::newRow("two events") << 2;
        QTest::newRow("fifty events") << 50;
    }

    void linesFormAHashChain()
    {
        QFETCH(int, count);

        const QString path = tmp_.filePath(QString("events-%1.jsonl").arg(count));
        const QString mirror = tmp_.filePath(QString("mirror-%1.jsonl").arg(count));
        auto log = open(path);
        QVERIFY2(log.ok(), log.ok() ? "" : log.error().message().c_str());
        QVERIFY(log->mirrorTo(mirror.toStdString()).ok());

        for (int i = 1; i <= count; ++i) {
            json data = {{"index", i}, {"text", "line \"" + std::to_string(i) + "\"\nwith a newline"}};
            QVERIFY(log->append(i == 1 ? "session.start" : "exec", data).ok());
        }

        const QByteArray written = readAll(path);
        QVERIFY(written.endsWith('\n'));
        const QList<QByteArray> lines = written.chopped(1).split('\n');
        QCOMPARE(lines.size(), count);

        const QRegularExpression timestamp(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$"));
        QByteArray previous;
        for (int k = 1; k <= count; ++k) {
            const QByteArray& line = lines[k - 1];
            QJsonParseError error{};
            const QJsonDocument document = QJsonDocument::fromJson(line, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + ": " + line));
            QVERIFY(document.isObject());
            const QJsonObject event = document.object();

            QCOMPARE(event.value("seq").toInteger(-1), qint64(k));
            QCOMPARE(event.value("session").toString(), QString("0123456789abcdef"));
            QCOMPARE(event.value("type").toString(), QString(k == 1 ? "session.start" : "exec"));
            QCOMPARE(event.value("data").toObject().value("index").toInt(), k);
            QCOMPARE(event.value("data").toObject().value("text").toString(),
                     QString("line \"%1\"\nwith a newline").arg(k));
            QVERIFY2(timestamp.match(event.value("ts").toString()).hasMatch(), qPrintable(event.value("ts").toString()));

            const QString expectedPrev =
                k == 1 ? QString(64, '0')
                       : QString::fromLatin1(QCryptographicHash::hash(previous, QCryptographicHash::Sha256).toHex());
            QCOMPARE(event.value("prev").toString(), expectedPrev);
            previous = line;
        }

        // The mirror is byte for byte the log.
        QCOMPARE(readAll(mirror), written);
    }

    void editingALineBreaksTheChain()
    {
        const QString path = tmp_.filePath("edited.jsonl");
        auto log = open(path);
        QVERIFY(log.ok());
        for (int i = 0; i < 3; ++i) {
            QVERIFY(log->append("exec", json{{"argv", {"ls"}}}).ok());
        }
        QList<QByteArray> lines = readAll(path).chopped(1).split('\n');
        const QString prevOfThird = QJsonDocument::fromJson(lines[2]).object().value("prev").toString();
        QCOMPARE(prevOfThird, QString::fromStdString(EventLog::sha256Hex(lines[1].toStdString())));
        lines[1].replace("ls", "rm");
        QVERIFY(prevOfThird != QString::fromStdString(EventLog::sha256Hex(lines[1].toStdString())));
    }

    // Whatever the data holds, the line stays one valid JSON object.
    void oddDataStaysOneValidLine()
    {
        const QString path = tmp_.filePath("odd.jsonl");
        auto log = open(path);
        QVERIFY(log.ok());
        QVERIFY(log->append("exec", json{{"argv", {std::string("bad \xff\xfe utf-8"), std::string("nul\0inside", 10),
                                                   "\n\r\t\x01", "\u2028"}}})
                    .ok());
        QVERIFY(log->append("net.deny", json()).ok());
        const QList<QByteArray> lines = readAll(path).chopped(1).split('\n');
        QCOMPARE(lines.size(), 2);
        for (const QByteArray& line : lines) {
            QJsonParseError error{};
            QJsonDocument::fromJson(line, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + ": " + line));
        }
    }

    void logIsPrivateAndRefusesSymlinks()
    {
        const QString path = tmp_.filePath("private.jsonl");
        auto log = open(path);
        QVERIFY(log.ok());
        struct stat info {};
        QCOMPARE(stat(path.toLocal8Bit().constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, mode_t(0600));

        const QString link = tmp_.filePath("link.jsonl");
        QVERIFY(QFile::link(tmp_.filePath("elsewhere.jsonl"), link));
        const auto refused = open(link);
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().errnum != 0);
        QVERIFY(!QFile::exists(tmp_.filePath("elsewhere.jsonl")));
    }

    void unwritableMirrorIsAnError()
    {
        auto log = open(tmp_.filePath("m.jsonl"));
        QVERIFY(log.ok());
        const auto mirrored = log->mirrorTo(tmp_.filePath("no-such-dir/mirror.jsonl").toStdString());
        QVERIFY(!mirrored.ok());
        QVERIFY(QString::fromStdString(mirrored.error().what).startsWith("--json-events"));
        QVERIFY(!mirrored.error().hint.empty());
    }
    // The mac is the last member; it covers the exact bytes of the line
    // without it (record_line.h), and only the first line names the key.
    void everyLineEndsInTheMacOfTheRest()
    {
        const QString path = tmp_.filePath("macs.jsonl");
        auto log = open(path);
        QVERIFY(log.ok());
        for (int i = 0; i < 20; ++i) {
            const json data = {{"i", i}, {"text", "ünïcode \"quoted\""}};
            QVERIFY(log->append(i == 0 ? "session.start" : "exec", data).ok());
        }
        auto hmac = HmacSha256::create(keys_->hmacKey(), RecordKeys::kHmacKeySize);
        QVERIFY(hmac.ok());
        const QList<QByteArray> lines = readAll(path).chopped(1).split('\n');
        QCOMPARE(lines.size(), 20);
        const QRegularExpression macMember(QStringLiteral(",\"mac\":\"([0-9a-f]{64})\"\\}$"));
        for (int k = 0; k < lines.size(); ++k) {
            const QString line = QString::fromUtf8(lines[k]);
            const auto match = macMember.match(line);
            QVERIFY2(match.hasMatch(), qPrintable(line));
            const QByteArray body = lines[k].left(lines[k].lastIndexOf(",\"mac\":\"")) + "}";
            QCOMPARE(QString::fromStdString(hmac->hex(body.toStdString())), match.captured(1));
            const QJsonObject event = QJsonDocument::fromJson(lines[k]).object();
            QCOMPARE(event.value("mac").toString(), match.captured(1));
            if (k == 0) {
                QCOMPARE(event.value("key").toString(), QString::fromStdString(keys_->id()));
            } else {
                QVERIFY(!event.contains("key"));
            }
        }
    }

    void theSealSignsTheHeadOfTheChain()
    {
        const QString path = tmp_.filePath("sealed.jsonl");
        auto log = open(path);
        QVERIFY(log.ok());
        for (int i = 0; i < 5; ++i) {
            QVERIFY(log->append("exec", json{{"i", i}}).ok());
        }
        QVERIFY(log->seal().ok());
        QVERIFY(log->seal().ok());  // once is enough; again is harmless
        QVERIFY(!log->append("exec", json{{"late", true}}).ok());

        const QList<QByteArray> lines = readAll(path).chopped(1).split('\n');
        QCOMPARE(lines.size(), 5);
        QCOMPARE(EventSeal::pathFor(path.toStdString()), tmp_.filePath("sealed.seal").toStdString());
        const QByteArray sealText = readAll(tmp_.filePath("sealed.seal"));
        auto seal = EventSeal::parse(sealText.toStdString());
        QVERIFY2(seal.ok(), sealText.constData());
        QCOMPARE(seal->session, std::string("0123456789abcdef"));
        QCOMPARE(seal->lines, uint64_t(5));
        QCOMPARE(seal->head, EventLog::sha256Hex(lines.last().toStdString()));
        QCOMPARE(seal->key, keys_->id());
        QVERIFY(seal->signedBy(keys_->publicKey()));
        auto other = RecordKeys::generate();
        QVERIFY(other.ok());
        QVERIFY(!seal->signedBy(other->publicKey()));

        struct stat info {};
        QCOMPARE(stat(tmp_.filePath("sealed.seal").toLocal8Bit().constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, mode_t(0600));
    }

    void aLogNeedsKeys()
    {
        const auto refused = EventLog::open(tmp_.filePath("keyless.jsonl").toStdString(), "s", nullptr);
        QVERIFY(!refused.ok());
        QVERIFY(!QFile::exists(tmp_.filePath("keyless.jsonl")));
    }
};

QTEST_GUILESS_MAIN(EventLogHashChain)
#include "tst_event_log_hash_chain.moc"
