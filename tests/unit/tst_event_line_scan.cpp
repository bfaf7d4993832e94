// SPDX-License-Identifier: Apache-2.0
// The verifier reads the top-level seq, session, prev and key of each line
// without a JSON tree: whatever the data holds (strings that look like those
// members, braces, escapes, nesting), it finds the real ones, and it refuses
// what is not one JSON object.
#include "audit/event_line.h"
#include "audit/event_log.h"
#include "audit/record_keys.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using moat::EventLine;

class EventLineScan : public QObject {
    Q_OBJECT

private slots:
    void findsTheTopLevelMembers_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<qulonglong>("seq");
        QTest::addColumn<QByteArray>("session");
        QTest::addColumn<QByteArray>("prev");

        QTest::newRow("plain") << QByteArray(
                                      "{\"data\":{},\"prev\":\"ab\",\"seq\":7,\"session\":\"s1\",\"type\":\"exec\"}")
                               << 7ULL << QByteArray("s1") << QByteArray("ab");
        QTest::newRow("look-alikes inside data") << QByteArray(
                                                        "{\"data\":{\"prev\":\"no\",\"seq\":1,\"x\":\"\\\",\\\"seq\\\":"
                                                        "2,\\\"session\\\":\\\"evil\"},\"prev\":\"cd\","
                                                        "\"seq\":8,\"session\":\"s2\",\"type\":\"t\"}")
                                                 << 8ULL << QByteArray("s2") << QByteArray("cd");
        QTest::newRow("braces and brackets in strings")
            << QByteArray(
                   "{\"data\":{\"a\":[\"}\",\"]\",\"{[\",{\"b\":\"}}\"}],\"c\":\"\\\\\"},\"prev\":\"ef\",\"seq\":9,"
                   "\"session\":\"s3\"}")
            << 9ULL << QByteArray("s3") << QByteArray("ef");
        QTest::newRow("escapes and literals") << QByteArray(
                                                     "{\"data\":{\"u\":\"\\u2028\\ud83d\\ude00\",\"n\":null,\"t\":true,"
                                                     "\"f\":-1.5e3},\"prev\":\"01\",\"seq\":10,"
                                                     "\"session\":\"s4\",\"mac\":\"00\"}")
                                              << 10ULL << QByteArray("s4") << QByteArray("01");
    }

    void findsTheTopLevelMembers()
    {
        QFETCH(QByteArray, line);
        QFETCH(qulonglong, seq);
        QFETCH(QByteArray, session);
        QFETCH(QByteArray, prev);
        const auto fields = EventLine::scan(std::string_view(line.constData(), static_cast<size_t>(line.size())));
        QVERIFY(fields.has_value());
        QVERIFY(fields->seq.has_value());
        QCOMPARE(qulonglong(*fields->seq), seq);
        QVERIFY(fields->hasSession && fields->hasPrev);
        QCOMPARE(QByteArray(fields->session.data(), qsizetype(fields->session.size())), session);
        QCOMPARE(QByteArray(fields->prev.data(), qsizetype(fields->prev.size())), prev);
        QVERIFY(!fields->hasKey);
    }

    void refusesWhatIsNotOneObject_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("array") << QByteArray("[1,2]");
        QTest::newRow("trailing bytes") << QByteArray("{\"seq\":1} x");
        QTest::newRow("two objects") << QByteArray("{\"seq\":1}{\"seq\":2}");
        QTest::newRow("unclosed string") << QByteArray("{\"seq\":1,\"session\":\"abc}");
        QTest::newRow("unclosed object") << QByteArray("{\"seq\":1,\"data\":{\"a\":1}");
        QTest::newRow("no colon") << QByteArray("{\"seq\" 1}");
        QTest::newRow("control character in a string") << QByteArray("{\"session\":\"a\nb\"}");
    }

    void refusesWhatIsNotOneObject()
    {
        QFETCH(QByteArray, line);
        QVERIFY(!EventLine::scan(std::string_view(line.constData(), static_cast<size_t>(line.size()))).has_value());
    }

    void membersOfTheWrongTypeDoNotCount()
    {
        const auto fields = EventLine::scan("{\"seq\":\"1\",\"session\":2,\"prev\":[\"x\"],\"key\":\"k\"}");
        QVERIFY(fields.has_value());
        QVERIFY(!fields->seq.has_value());
        QVERIFY(!fields->hasSession);
        QVERIFY(!fields->hasPrev);
        QVERIFY(fields->hasKey);
        QCOMPARE(QByteArray(fields->key.data(), qsizetype(fields->key.size())), QByteArray("k"));
    }

    // Whatever an event holds, the line moat writes scans to the right members.
    void everyLineTheWriterMakesScans()
    {
        QTemporaryDir tmp;
        auto keys = moat::RecordKeys::generate();
        QVERIFY(keys.ok());
        const QString path = tmp.filePath("events.jsonl");
        auto log = moat::EventLog::open(path.toStdString(), "5e55",
                                        std::make_shared<const moat::RecordKeys>(std::move(keys.value())));
        QVERIFY(log.ok());
        const nlohmann::json odd = {{"argv",
                                     {std::string("bad \xff\xfe utf-8"), std::string("nul\0inside", 10), "\n\r\t\x01",
                                      "\u2028", "\",\"seq\":99,\"prev\":\"", "}{]["}},
                                    {"nested", {{"prev", "no"}, {"seq", 98}, {"deeper", {{"session", "no"}}}}}};
        for (int i = 0; i < 3; ++i) {
            QVERIFY(log->append("exec", odd).ok());
        }
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().chopped(1).split('\n');
        QCOMPARE(lines.size(), 3);
        for (int i = 0; i < lines.size(); ++i) {
            const auto fields =
                EventLine::scan(std::string_view(lines[i].constData(), static_cast<size_t>(lines[i].size())));
            QVERIFY2(fields.has_value(), lines[i].constData());
            QCOMPARE(qulonglong(fields->seq.value_or(0)), qulonglong(i + 1));
            QCOMPARE(QByteArray(fields->session.data(), qsizetype(fields->session.size())), QByteArray("5e55"));
            QCOMPARE(fields->prev.size(), size_t(64));
            QCOMPARE(fields->hasKey, i == 0);
        }
    }
};

QTEST_GUILESS_MAIN(EventLineScan)
#include "tst_event_line_scan.moc"
