// SPDX-License-Identifier: Apache-2.0
// moatd's ReadTimeline pages (helper/timeline_index.h): the same lines as a
// scan from the file's start, for every page size and start; a page deep in
// a large log reads at most a stride of lines before it once the index
// knows the file (before, every page read from line 1); lines appended later
// are found; a replaced or shortened file is learnt again; a line still
// being written is not an event.
#include "timeline_index.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using moat::helper::TimelineIndex;

namespace {

QByteArray line(quint64 seq)
{
    return "{\"data\":{\"argv\":[\"make\",\"" + QByteArray::number(seq) + "\"]},\"seq\":" + QByteArray::number(seq) +
           ",\"session\":\"0123456789abcdef\",\"ts\":\"2026-12-01T10:00:00.000Z\",\"type\":\"exec\"}\n";
}

void append(const QString& path, quint64 from, quint64 to)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::Append));
    QByteArray text;
    for (quint64 seq = from; seq <= to; ++seq) {
        text += line(seq);
    }
    QVERIFY(file.write(text) == text.size());
}

QByteArray expected(quint64 after, quint64 last, uint max)
{
    QByteArray text;
    for (quint64 seq = after + 1; seq <= last && seq <= after + max; ++seq) {
        text += line(seq);
    }
    return text;
}

}  // namespace

class TimelineIndexPages : public QObject
{
    Q_OBJECT

private slots:
    void pagesEqualAScanFromTheStart();
    void aDeepPageReadsOnlyAStride();
    void appendedLinesAreFound();
    void aReplacedOrShortenedFileIsLearntAgain();
    void aLineBeingWrittenIsNotAnEvent();
    void byteLimitStopsAPage();
};

void TimelineIndexPages::pagesEqualAScanFromTheStart()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.jsonl"));
    append(path, 1, 5000);
    TimelineIndex index;
    for (uint max : {1u, 7u, 1000u, 10000u}) {
        for (quint64 after : {0ull, 1ull, 1023ull, 1024ull, 1025ull, 2047ull, 3000ull, 4999ull, 5000ull, 6000ull}) {
            const TimelineIndex::Page page = index.read(path, after, max, 16 << 20);
            QCOMPARE(page.lines, expected(after, 5000, max));
        }
    }
    // Read backwards (the index learnt the whole file above).
    for (qint64 after = 5000; after > 0; after -= 333) {
        const auto seq = static_cast<quint64>(after);
        QCOMPARE(index.read(path, seq, 10, 16 << 20).lines, expected(seq, 5000, 10));
    }
    QVERIFY(!index.read(dir.filePath(QStringLiteral("none.jsonl")), 0, 10, 1 << 20).opened);
}

void TimelineIndexPages::aDeepPageReadsOnlyAStride()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.jsonl"));
    append(path, 1, 200000);
    TimelineIndex index;
    // Pages of 10,000 through the whole log, as the app reads it.
    quint64 scanned = 0;
    for (quint64 after = 0; after < 200000; after += 10000) {
        const TimelineIndex::Page page = index.read(path, after, 10000, 16 << 20);
        QCOMPARE(page.count, 10000u);
        scanned += page.scannedLines;
    }
    // Each page starts at most a stride before its first line: about the
    // file once, not 20 times over half of it.
    QVERIFY2(scanned <= 200000 + 20 * TimelineIndex::kStride, qPrintable(QString::number(scanned)));
    const TimelineIndex::Page deep = index.read(path, 199990, 10, 16 << 20);
    QCOMPARE(deep.lines, expected(199990, 200000, 10));
    QVERIFY2(deep.scannedLines <= TimelineIndex::kStride + 10, qPrintable(QString::number(deep.scannedLines)));
    // One event by seq (the app's details of a selected row).
    const TimelineIndex::Page one = index.read(path, 123456, 1, 16 << 20);
    QCOMPARE(one.lines, line(123457));
    QVERIFY(one.scannedLines <= TimelineIndex::kStride + 1);
}

void TimelineIndexPages::appendedLinesAreFound()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.jsonl"));
    append(path, 1, 3000);
    TimelineIndex index;
    QCOMPARE(index.read(path, 0, 10000, 16 << 20).count, 3000u);
    append(path, 3001, 4100);
    QCOMPARE(index.read(path, 3000, 10000, 16 << 20).lines, expected(3000, 4100, 10000));
    QCOMPARE(index.read(path, 4000, 10000, 16 << 20).lines, expected(4000, 4100, 10000));
    QCOMPARE(index.read(path, 0, 10000, 16 << 20).count, 4100u);
}

void TimelineIndexPages::aReplacedOrShortenedFileIsLearntAgain()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.jsonl"));
    append(path, 1, 5000);
    TimelineIndex index;
    QCOMPARE(index.read(path, 4000, 10, 16 << 20).lines, expected(4000, 5000, 10));
    // Shortened in place (same inode): the old offsets must not be used.
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.resize(0));
    }
    append(path, 1, 100);
    QCOMPARE(index.read(path, 50, 10, 16 << 20).lines, expected(50, 100, 10));
    // Replaced by another file with different line lengths.
    QVERIFY(QFile::remove(path));
    QFile other(path);
    QVERIFY(other.open(QIODevice::WriteOnly));
    QByteArray text;
    for (int seq = 1; seq <= 3000; ++seq) {
        text += "{\"seq\":" + QByteArray::number(seq) + ",\"type\":\"x\",\"pad\":\"" + QByteArray(seq % 7, 'p') + "\"}\n";
    }
    other.write(text);
    other.close();
    const TimelineIndex::Page page = index.read(path, 2500, 1, 16 << 20);
    QVERIFY(page.lines.startsWith("{\"seq\":2501,"));
}

void TimelineIndexPages::aLineBeingWrittenIsNotAnEvent()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.jsonl"));
    append(path, 1, 10);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        file.write(line(11).chopped(5));
    }
    TimelineIndex index;
    QCOMPARE(index.read(path, 0, 100, 16 << 20).lines, expected(0, 10, 100));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        file.write(line(11).right(5));
    }
    QCOMPARE(index.read(path, 10, 100, 16 << 20).lines, line(11));
}

void TimelineIndexPages::byteLimitStopsAPage()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.jsonl"));
    append(path, 1, 100);
    TimelineIndex index;
    const qsizetype size = line(1).size();
    const TimelineIndex::Page page = index.read(path, 0, 100, size * 3 + 1);
    QCOMPARE(page.count, 3u);
    QCOMPARE(index.read(path, 0, 100, 1).count, 1u);  // at least one line
}

QTEST_MAIN(TimelineIndexPages)
#include "tst_timeline_index_pages.moc"
