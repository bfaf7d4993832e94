// SPDX-License-Identifier: Apache-2.0
// Duration is how --ttl is written: whole seconds, a number and a unit per
// part, never zero, never more than 30 days (a typo must not make a sandbox
// that effectively never expires).
#include "policy/duration.h"

#include <QTest>

using moat::Duration;
using namespace std::chrono_literals;

class DurationParsing : public QObject {
    Q_OBJECT

private slots:
    void acceptsWhatPeopleWrite_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qlonglong>("seconds");

        QTest::newRow("90s") << "90s" << 90LL;
        QTest::newRow("30m") << "30m" << 1800LL;
        QTest::newRow("8h") << "8h" << 28800LL;
        QTest::newRow("1h30m") << "1h30m" << 5400LL;
        QTest::newRow("2d") << "2d" << 172800LL;
        QTest::newRow("30d, the maximum") << "30d" << 2592000LL;
        QTest::newRow("1s, the minimum") << "1s" << 1LL;
        QTest::newRow("1d2h3m4s") << "1d2h3m4s" << 93784LL;
        QTest::newRow("leading zeros") << "007m" << 420LL;
        QTest::newRow("30 days in seconds") << "2592000s" << 2592000LL;
        QTest::newRow("29d23h59m59s") << "29d23h59m59s" << 2591999LL;
    }

    void acceptsWhatPeopleWrite()
    {
        QFETCH(QString, text);
        QFETCH(qlonglong, seconds);

        const auto parsed = Duration::parse(text.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(QString::fromStdString(parsed.ok() ? "" : parsed.error().message())));
        QCOMPARE(static_cast<qlonglong>(parsed.value().seconds().count()), seconds);
    }

    void rejectsWhatIsNotADuration_data()
    {
        QTest::addColumn<QString>("text");

        QTest::newRow("empty") << "";
        QTest::newRow("zero") << "0s";
        QTest::newRow("zero in parts") << "0h0m";
        QTest::newRow("no unit") << "10";
        QTest::newRow("unknown unit") << "5x";
        QTest::newRow("unit alone") << "h";
        QTest::newRow("negative") << "-1h";
        QTest::newRow("31d, over the maximum") << "31d";
        QTest::newRow("30d and a second") << "30d1s";
        QTest::newRow("one second too many") << "2592001s";
        QTest::newRow("overflows 64 bits") << "99999999999999999999999s";
        QTest::newRow("overflows in the sum") << "9223372036854775807d";
        QTest::newRow("upper-case unit") << "8H";
        QTest::newRow("space inside") << "1h 30m";
        QTest::newRow("leading space") << " 8h";
        QTest::newRow("trailing garbage") << "8h!";
        QTest::newRow("decimal") << "1.5h";
        QTest::newRow("plus sign") << "+8h";
        QTest::newRow("weeks are not a unit") << "1w";
        QTest::newRow("trailing number") << "1h30";
    }

    void rejectsWhatIsNotADuration()
    {
        QFETCH(QString, text);

        const auto parsed = Duration::parse(text.toStdString());
        QVERIFY2(!parsed.ok(), qPrintable("accepted as " + QString::number(parsed.ok() ? parsed.value().seconds().count() : 0) + "s"));
        QVERIFY(!parsed.error().what.empty());
        // A person must learn how to write it instead.
        QVERIFY(!parsed.error().hint.empty());
        QCOMPARE(parsed.error().errnum, 0);
    }

    void toStringIsCanonical_data()
    {
        QTest::addColumn<qlonglong>("seconds");
        QTest::addColumn<QString>("text");

        QTest::newRow("1s") << 1LL << "1s";
        QTest::newRow("90s") << 90LL << "1m30s";
        QTest::newRow("30m") << 1800LL << "30m";
        QTest::newRow("8h") << 28800LL << "8h";
        QTest::newRow("1h30m") << 5400LL << "1h30m";
        QTest::newRow("24h is 1d") << 86400LL << "1d";
        QTest::newRow("25h") << 90000LL << "1d1h";
        QTest::newRow("1h1s, no empty minute") << 3601LL << "1h1s";
        QTest::newRow("every unit") << 93784LL << "1d2h3m4s";
        QTest::newRow("30d") << 2592000LL << "30d";
    }

    void toStringIsCanonical()
    {
        QFETCH(qlonglong, seconds);
        QFETCH(QString, text);

        const Duration duration = Duration::fromSeconds(std::chrono::seconds(seconds));
        QCOMPARE(QString::fromStdString(duration.toString()), text);
        // The canonical spelling parses back to the same length.
        const auto reparsed = Duration::parse(duration.toString());
        QVERIFY(reparsed.ok());
        QCOMPARE(reparsed.value(), duration);
    }

    void differentSpellingsAreEqual()
    {
        QCOMPARE(Duration::parse("90m").value(), Duration::parse("1h30m").value());
        QCOMPARE(Duration::parse("90m").value().toString(), std::string("1h30m"));
        QCOMPARE(Duration::parse("48h").value(), Duration::fromSeconds(std::chrono::seconds(2 * 86400)));
    }

    void maximumIsThirtyDays() { QCOMPARE(Duration::kMaximum, std::chrono::seconds(30 * 24h)); }
};

QTEST_GUILESS_MAIN(DurationParsing)
#include "tst_duration_parsing.moc"
