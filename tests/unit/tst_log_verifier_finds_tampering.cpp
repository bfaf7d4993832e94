// SPDX-License-Identifier: Apache-2.0
// `moat audit verify`'s checker finds the first line of a session's records
// that someone altered, inserted, removed, reordered or cut off, and every way
// of tampering with the seal; it tells a crash (no seal, a torn last line)
// apart from tampering, and says so when it cannot check a log at all.
#include "audit/event_log.h"
#include "audit/event_seal.h"
#include "audit/hmac_sha256.h"
#include "audit/log_verifier.h"
#include "audit/record_keys.h"
#include "audit/record_line.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace moat;
using nlohmann::json;
using Outcome = LogVerdict::Outcome;
using Ending = LogVerdict::Ending;
using State = LogVerifier::SessionState;

namespace {

constexpr char kSession[] = "5e55105e55105e55";
constexpr char kOtherSession[] = "07e507e507e507e5";

enum class Edit {
    None,
    AlterData,
    AlterMac,
    AlterDataAndRechain,
    InsertForgedLine,
    InsertCopiedLine,
    SpliceLineOfAnotherSession,
    RemoveLine,
    RemoveFirstLine,
    SwapLines,
    TruncateAtLineBoundary,
    TruncateInsideLastLine,
    AppendAfterSeal,
    RemoveSeal,
    AlterSealLines,
    AlterSealHead,
    SealByAnotherKey,
    SealByAnotherKeyClaimingTheUsers,
    SealOfAnotherSession,
    SealNotJson,
};

}  // namespace

Q_DECLARE_METATYPE(Edit)
Q_DECLARE_METATYPE(moat::LogVerdict::Outcome)
Q_DECLARE_METATYPE(moat::LogVerdict::Ending)

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& content)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(content), content.size());
}

QByteArray joined(const QByteArrayList& lines)
{
    QByteArray content;
    for (const QByteArray& line : lines) {
        content += line + '\n';
    }
    return content;
}

std::shared_ptr<const RecordKeys> makeKeys()
{
    auto keys = RecordKeys::generate();
    return keys.ok() ? std::make_shared<const RecordKeys>(std::move(keys.value())) : nullptr;
}

}  // namespace

class LogVerifierFindsTampering : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    std::shared_ptr<const RecordKeys> keys_;
    std::shared_ptr<const RecordKeys> otherKeys_;
    int logs_ = 0;

    // The user's keys by id; any other id is unavailable.
    LogVerifier verifier() const
    {
        return LogVerifier([this](const std::string& id) -> Result<std::shared_ptr<const RecordKeys>> {
            if (id == keys_->id()) {
                return keys_;
            }
            return Error{"no record key " + id + " here"};
        });
    }

    // A fresh log of `count` events in a directory of its own; sealed or not.
    QString writeLog(const char* session, int count, bool sealed)
    {
        const QString dir = tmp_.filePath(QString::number(++logs_));
        if (!QDir().mkpath(dir)) {
            return {};
        }
        const QString path = dir + "/events.jsonl";
        auto log = EventLog::open(path.toStdString(), session, keys_);
        if (!log.ok()) {
            return {};
        }
        for (int i = 0; i < count; ++i) {
            const char* type = i == 0 ? "session.start" : i == count - 1 ? "session.end" : "exec";
            if (!log->append(type, json{{"i", i}, {"argv", {"make", "test"}}}).ok()) {
                return {};
            }
        }
        if (sealed && !log->seal().ok()) {
            return {};
        }
        return path;
    }

    static QString sealPath(const QString& events)
    {
        return QString::fromStdString(EventSeal::pathFor(events.toStdString()));
    }

    void rewriteSeal(const QString& events, const std::function<void(EventSeal&)>& change, const RecordKeys& signer)
    {
        auto seal = EventSeal::parse(readAll(sealPath(events)).toStdString());
        QVERIFY(seal.ok());
        change(seal.value());
        auto resigned = EventSeal::make(seal->session, seal->lines, seal->head, seal->ts, signer);
        QVERIFY(resigned.ok());
        EventSeal result = resigned.value();
        // What the edit said about the key stays, only the signature is new.
        result.key = seal->key;
        result.publicKey = seal->publicKey;
        writeAll(sealPath(events), QByteArray::fromStdString(result.toJson()));
    }

    void apply(Edit edit, const QString& events)
    {
        QByteArrayList lines = readAll(events).chopped(1).split('\n');
        const QByteArray sealText = readAll(sealPath(events));
        auto hmac = HmacSha256::create(keys_->hmacKey(), RecordKeys::kHmacKeySize);
        QVERIFY(hmac.ok());
        switch (edit) {
            case Edit::None:
                return;
            case Edit::AlterData:
                lines[3].replace("\"i\":3", "\"i\":33");
                break;
            case Edit::AlterMac: {
                const qsizetype at = lines[3].indexOf("\"mac\":\"") + 7;
                lines[3][at] = lines[3][at] == 'a' ? 'b' : 'a';
                break;
            }
            case Edit::AlterDataAndRechain:
                // Without the key: the chain can be mended, the mac cannot.
                lines[3].replace("\"make\"", "\"rm -rf\"");
                lines[4].replace(QJsonDocument::fromJson(lines[4]).object().value("prev").toString().toLatin1(),
                                 QByteArray::fromStdString(EventLog::sha256Hex(lines[3].toStdString())));
                break;
            case Edit::InsertForgedLine:
                lines.insert(4, QByteArray::fromStdString(
                                    record_line::withMac("{\"data\":{},\"prev\":\"00\",\"seq\":5,\"session\":"
                                                         "\"5e55105e55105e55\",\"ts\":\"x\",\"type\":\"exec\"}",
                                                         std::string(64, 'c'))));
                break;
            case Edit::InsertCopiedLine:
                lines.insert(4, lines[3]);
                break;
            case Edit::SpliceLineOfAnotherSession: {
                const QString other = writeLog(kOtherSession, 10, true);
                lines[1] = readAll(other).split('\n')[1];
                break;
            }
            case Edit::RemoveLine:
                lines.removeAt(3);
                break;
            case Edit::RemoveFirstLine:
                lines.removeAt(0);
                break;
            case Edit::SwapLines:
                lines.swapItemsAt(3, 4);
                break;
            case Edit::TruncateAtLineBoundary:
                lines = lines.mid(0, 7);
                break;
            case Edit::TruncateInsideLastLine:
                writeAll(events, joined(lines).chopped(20));
                return;
            case Edit::AppendAfterSeal:
                lines.append(lines.last());
                break;
            case Edit::RemoveSeal:
                QVERIFY(QFile::remove(sealPath(events)));
                return;
            case Edit::AlterSealLines:
                writeAll(sealPath(events), QByteArray(sealText).replace("\"lines\":10", "\"lines\":9"));
                return;
            case Edit::AlterSealHead: {
                const QByteArray head = QJsonDocument::fromJson(sealText).object().value("head").toString().toLatin1();
                writeAll(sealPath(events),
                         QByteArray(sealText).replace(
                             head, QByteArray::fromStdString(EventLog::sha256Hex(lines[8].toStdString()))));
                return;
            }
            case Edit::SealByAnotherKey:
                rewriteSeal(
                    events, [](EventSeal&) {}, *otherKeys_);
                return;
            case Edit::SealByAnotherKeyClaimingTheUsers: {
                auto seal = EventSeal::parse(sealText.toStdString());
                QVERIFY(seal.ok());
                auto forged = EventSeal::make(seal->session, seal->lines, seal->head, seal->ts, *otherKeys_);
                QVERIFY(forged.ok());
                writeAll(sealPath(events), QByteArray::fromStdString(forged->toJson()));
                return;
            }
            case Edit::SealOfAnotherSession: {
                const QString other = writeLog(kOtherSession, 10, true);
                writeAll(sealPath(events), readAll(sealPath(other)));
                return;
            }
            case Edit::SealNotJson:
                writeAll(sealPath(events), "sealed, honest\n");
                return;
        }
        writeAll(events, joined(lines));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        keys_ = makeKeys();
        otherKeys_ = makeKeys();
        QVERIFY(keys_ && otherKeys_);
    }

    void eachKindOfEditIsFoundAtItsLine_data()
    {
        QTest::addColumn<Edit>("edit");
        QTest::addColumn<int>("badLine");  // 0: the seal
        QTest::addColumn<QString>("problem");

        QTest::newRow("altered data") << Edit::AlterData << 4 << "mac does not match";
        QTest::newRow("altered mac") << Edit::AlterMac << 4 << "mac does not match";
        QTest::newRow("altered data, chain mended") << Edit::AlterDataAndRechain << 4 << "mac does not match";
        QTest::newRow("forged line inserted") << Edit::InsertForgedLine << 5 << "mac does not match";
        QTest::newRow("line copied in") << Edit::InsertCopiedLine << 5 << "seq is 4 where 5 was expected";
        QTest::newRow("line of another session") << Edit::SpliceLineOfAnotherSession << 2 << "another session";
        QTest::newRow("line removed") << Edit::RemoveLine << 4 << "seq is 5 where 4 was expected";
        QTest::newRow("first line removed") << Edit::RemoveFirstLine << 1 << "names no record key";
        QTest::newRow("lines swapped") << Edit::SwapLines << 4 << "seq is 5 where 4 was expected";
        QTest::newRow("truncated at a line boundary")
            << Edit::TruncateAtLineBoundary << 8 << "the seal covers 10 lines, the log has 7";
        QTest::newRow("truncated inside the last line") << Edit::TruncateInsideLastLine << 10 << "cut short";
        QTest::newRow("line appended after the seal") << Edit::AppendAfterSeal << 11 << "added after its end";
        QTest::newRow("seal removed") << Edit::RemoveSeal << 11 << "has no seal";
        QTest::newRow("seal's line count altered") << Edit::AlterSealLines << 0 << "signature is not by";
        QTest::newRow("seal's head altered") << Edit::AlterSealHead << 0 << "signature is not by";
        QTest::newRow("seal signed by another key") << Edit::SealByAnotherKey << 0 << "signature is not by";
        QTest::newRow("seal by another key, all its own")
            << Edit::SealByAnotherKeyClaimingTheUsers << 0 << "names record key";
        QTest::newRow("seal of another session") << Edit::SealOfAnotherSession << 0 << "another session";
        QTest::newRow("seal not JSON") << Edit::SealNotJson << 0 << "not a moat seal";
    }

    void eachKindOfEditIsFoundAtItsLine()
    {
        QFETCH(Edit, edit);
        QFETCH(int, badLine);
        QFETCH(QString, problem);

        const QString events = writeLog(kSession, 10, true);
        QVERIFY(!events.isEmpty());
        const LogVerdict before = verifier().verify(events.toStdString(), kSession, State::Ended);
        QCOMPARE(before.outcome, Outcome::Intact);
        QCOMPARE(before.ending, Ending::Sealed);
        QCOMPARE(before.lines, uint64_t(10));

        apply(edit, events);
        if (QTest::currentTestFailed()) {
            return;
        }
        const LogVerdict after = verifier().verify(events.toStdString(), kSession, State::Ended);
        QCOMPARE(after.outcome, Outcome::Broken);
        QCOMPARE(after.badLine, uint64_t(badLine));
        QVERIFY2(QString::fromStdString(after.problem).contains(problem), after.problem.c_str());
        // Every line before the bad one checked out.
        QCOMPARE(after.lines, badLine == 0 ? after.lines : uint64_t(badLine - 1));
    }

    // What a crash leaves is said, not failed.
    void aCrashIsNotTampering_data()
    {
        QTest::addColumn<QByteArray>("tail");  // appended after the removed seal
        QTest::addColumn<int>("state");
        QTest::addColumn<Ending>("ending");
        QTest::newRow("no seal, supervisor gone") << QByteArray() << int(State::Unknown) << Ending::Unsealed;
        QTest::newRow("no seal, still running") << QByteArray() << int(State::Running) << Ending::Running;
        QTest::newRow("torn last line after a crash")
            << QByteArray("{\"data\":{\"argv\":[\"ma") << int(State::Unknown) << Ending::Unsealed;
        QTest::newRow("a line being written right now")
            << QByteArray("{\"data\":{},\"prev\":\"ab") << int(State::Running) << Ending::Running;
    }

    void aCrashIsNotTampering()
    {
        QFETCH(QByteArray, tail);
        QFETCH(int, state);
        QFETCH(Ending, ending);
        const QString events = writeLog(kSession, 6, false);
        QVERIFY(!events.isEmpty());
        QVERIFY(!QFile::exists(sealPath(events)));
        writeAll(events, readAll(events) + tail);

        const LogVerdict verdict = verifier().verify(events.toStdString(), kSession, static_cast<State>(state));
        QVERIFY2(verdict.outcome == Outcome::Intact, verdict.problem.c_str());
        QCOMPARE(verdict.ending, ending);
        QCOMPARE(verdict.lines, uint64_t(6));
        QCOMPARE(verdict.tornTailBytes, uint64_t(tail.size()));
        QCOMPARE(verdict.keyId, keys_->id());
    }

    void aLastLineWithoutItsNewlineIsATornTail()
    {
        const QString events = writeLog(kSession, 6, false);
        const QByteArray content = readAll(events);
        writeAll(events, content.chopped(1));
        const LogVerdict verdict = verifier().verify(events.toStdString(), kSession, State::Unknown);
        QCOMPARE(verdict.outcome, Outcome::Intact);
        QCOMPARE(verdict.lines, uint64_t(5));
        QCOMPARE(verdict.tornTailBytes, uint64_t(content.split('\n')[5].size()));
    }

    void aTornLineInsideTheLogIsTampering()
    {
        const QString events = writeLog(kSession, 6, false);
        QByteArrayList lines = readAll(events).chopped(1).split('\n');
        lines[2] = lines[2].left(30);
        writeAll(events, joined(lines));
        const LogVerdict verdict = verifier().verify(events.toStdString(), kSession, State::Unknown);
        QCOMPARE(verdict.outcome, Outcome::Broken);
        QCOMPARE(verdict.badLine, uint64_t(3));
    }

    void emptyLogs_data()
    {
        QTest::addColumn<bool>("sealed");
        QTest::addColumn<int>("state");
        QTest::addColumn<Outcome>("outcome");
        QTest::newRow("sealed, ended") << true << int(State::Ended) << Outcome::Intact;
        QTest::newRow("unsealed, crashed") << false << int(State::Unknown) << Outcome::Intact;
        QTest::newRow("unsealed, ended") << false << int(State::Ended) << Outcome::Broken;
    }

    void emptyLogs()
    {
        QFETCH(bool, sealed);
        QFETCH(int, state);
        QFETCH(Outcome, outcome);
        const QString events = writeLog(kSession, 0, sealed);
        QVERIFY(!events.isEmpty());
        const LogVerdict verdict = verifier().verify(events.toStdString(), kSession, static_cast<State>(state));
        QVERIFY2(verdict.outcome == outcome, verdict.problem.c_str());
        QCOMPARE(verdict.lines, uint64_t(0));
    }

    void aLogWhoseKeyIsUnavailableCannotBeVerified()
    {
        const QString events = writeLog(kSession, 3, true);
        const LogVerifier elsewhere([](const std::string& id) -> Result<std::shared_ptr<const RecordKeys>> {
            return Error{"the record key " + id + " is not in this keychain"};
        });
        const LogVerdict verdict = elsewhere.verify(events.toStdString(), kSession, State::Ended);
        QCOMPARE(verdict.outcome, Outcome::Unverifiable);
        QCOMPARE(verdict.keyId, keys_->id());
        QVERIFY2(QString::fromStdString(verdict.problem).contains("not in this keychain"), verdict.problem.c_str());
    }

    void aMissingLogCannotBeVerified()
    {
        const LogVerdict verdict =
            verifier().verify(tmp_.filePath("nowhere/events.jsonl").toStdString(), kSession, State::Ended);
        QCOMPARE(verdict.outcome, Outcome::Unverifiable);
        QVERIFY(!verdict.problem.empty());
    }

    void aLogCheckedAsAnotherSessionIsBroken()
    {
        const QString events = writeLog(kSession, 3, true);
        const LogVerdict verdict = verifier().verify(events.toStdString(), kOtherSession, State::Ended);
        QCOMPARE(verdict.outcome, Outcome::Broken);
        QCOMPARE(verdict.badLine, uint64_t(1));
    }

    // Many lines: the chain holds end to end, and an edit near the end is
    // found exactly there.
    void aLongChainAndAnEditNearItsEnd()
    {
        const int count = 10000;
        const QString events = writeLog(kSession, count, true);
        QVERIFY(!events.isEmpty());
        const LogVerdict intact = verifier().verify(events.toStdString(), kSession, State::Ended);
        QCOMPARE(intact.outcome, Outcome::Intact);
        QCOMPARE(intact.lines, uint64_t(count));

        QByteArray content = readAll(events);
        const qsizetype at = content.indexOf("\"i\":9998}");
        QVERIFY(at > 0);
        content[at + 5] = '7';
        writeAll(events, content);
        const LogVerdict broken = verifier().verify(events.toStdString(), kSession, State::Ended);
        QCOMPARE(broken.outcome, Outcome::Broken);
        QCOMPARE(broken.badLine, uint64_t(9999));
    }
};

QTEST_GUILESS_MAIN(LogVerifierFindsTampering)
#include "tst_log_verifier_finds_tampering.moc"
