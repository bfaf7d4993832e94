// SPDX-License-Identifier: Apache-2.0
// AnsiDecoder and OutputPane: SGR colours (16, 256, 24-bit, both the ';'
// and the ':' forms), bold, reset; every other escape sequence dropped
// whole, including hostile ones (OSC 52 clipboard writes, OSC 8 links,
// titles, DCS, over-long parameters, unterminated strings, C1 controls,
// bidi overrides), also when split across chunks; bounded scrollback and
// the input line.

#include "ansi_text.h"
#include "output_pane.h"

#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>

using namespace moat::gui;

namespace {

QString plain(const std::vector<AnsiRun>& runs)
{
    QString text;
    for (const AnsiRun& run : runs) {
        text += run.text;
    }
    return text;
}

// Feeds `bytes` one byte at a time: every split point is a chunk boundary.
std::vector<AnsiRun> byteByByte(AnsiDecoder& decoder, const QByteArray& bytes)
{
    std::vector<AnsiRun> all;
    for (char c : bytes) {
        for (AnsiRun& run : decoder.feed(QByteArray(1, c))) {
            if (!all.empty() && all.back().style == run.style) {
                all.back().text += run.text;
            } else {
                all.push_back(std::move(run));
            }
        }
    }
    return all;
}

}  // namespace

class AnsiTextTest : public QObject
{
    Q_OBJECT

private slots:
    void colours_data();
    void colours();
    void stripped_data();
    void stripped();
    void styleCarriesAcrossChunks();
    void paneRendersAndBoundsScrollback();
    void paneInputLine();
};

void AnsiTextTest::colours_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("text");     // of the last run
    QTest::addColumn<QColor>("foreground");
    QTest::addColumn<QColor>("background");
    QTest::addColumn<bool>("bold");

    QTest::newRow("red") << QByteArray("\x1b[31mred") << "red" << AnsiDecoder::paletteColor(1) << QColor() << false;
    QTest::newRow("bright green bold") << QByteArray("\x1b[1;92mok") << "ok" << AnsiDecoder::paletteColor(10)
                                       << QColor() << true;
    QTest::newRow("background") << QByteArray("\x1b[44mx") << "x" << QColor() << AnsiDecoder::paletteColor(4) << false;
    QTest::newRow("bright background") << QByteArray("\x1b[103mx") << "x" << QColor() << AnsiDecoder::paletteColor(11)
                                       << false;
    QTest::newRow("256") << QByteArray("\x1b[38;5;196mx") << "x" << QColor(255, 0, 0) << QColor() << false;
    QTest::newRow("256 grey bg") << QByteArray("\x1b[48;5;232mx") << "x" << QColor() << QColor(8, 8, 8) << false;
    QTest::newRow("truecolor") << QByteArray("\x1b[38;2;10;20;30mx") << "x" << QColor(10, 20, 30) << QColor() << false;
    QTest::newRow("truecolor colon") << QByteArray("\x1b[38:2::10:20:30mx") << "x" << QColor(10, 20, 30) << QColor()
                                     << false;
    QTest::newRow("256 colon") << QByteArray("\x1b[48:5:21mx") << "x" << QColor() << QColor(0, 0, 255) << false;
    QTest::newRow("reset") << QByteArray("\x1b[1;31mA\x1b[0mB") << "B" << QColor() << QColor() << false;
    QTest::newRow("empty is reset") << QByteArray("\x1b[31mA\x1b[mB") << "B" << QColor() << QColor() << false;
    QTest::newRow("default fg") << QByteArray("\x1b[31;44mA\x1b[39mB") << "B" << QColor() << AnsiDecoder::paletteColor(4)
                                << false;
    QTest::newRow("bold off") << QByteArray("\x1b[1mA\x1b[22mB") << "B" << QColor() << QColor() << false;
    QTest::newRow("out of range 256 ignored") << QByteArray("\x1b[38;5;999mx") << "x" << QColor() << QColor() << false;
    QTest::newRow("out of range rgb ignored") << QByteArray("\x1b[38;2;300;0;0mx") << "x" << QColor() << QColor()
                                              << false;
    QTest::newRow("truncated 38") << QByteArray("\x1b[38mx") << "x" << QColor() << QColor() << false;
    QTest::newRow("then more codes") << QByteArray("\x1b[38;5;21;1mx") << "x" << QColor(0, 0, 255) << QColor() << true;
}

void AnsiTextTest::colours()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, text);
    QFETCH(QColor, foreground);
    QFETCH(QColor, background);
    QFETCH(bool, bold);
    for (bool split : {false, true}) {
        AnsiDecoder decoder;
        const std::vector<AnsiRun> runs = split ? byteByByte(decoder, bytes) : decoder.feed(bytes);
        QVERIFY(!runs.empty());
        QCOMPARE(runs.back().text, text);
        QCOMPARE(runs.back().style.foreground, foreground);
        QCOMPARE(runs.back().style.background, background);
        QCOMPARE(runs.back().style.bold, bold);
    }
}

void AnsiTextTest::stripped_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("text");

    QTest::newRow("plain") << QByteArray("hello\tworld\n") << "hello\tworld\n";
    QTest::newRow("utf8") << QByteArray("gr\xc3\xbc\xc3\x9f\x65 \xe2\x9c\x93") << QString::fromUtf8("grüße ✓");
    QTest::newRow("OSC 52 clipboard BEL") << QByteArray("a\x1b]52;c;cm0gLXJmIH4=\x07" "b") << "ab";
    QTest::newRow("OSC 52 clipboard ST") << QByteArray("a\x1b]52;c;cm0gLXJmIH4=\x1b\\b") << "ab";
    QTest::newRow("OSC 8 hyperlink") << QByteArray("\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\") << "click";
    QTest::newRow("title") << QByteArray("\x1b]0;sudo password:\x07x") << "x";
    QTest::newRow("DCS") << QByteArray("a\x1bPq#0;2;0;0;0#1~~\x1b\\b") << "ab";
    QTest::newRow("APC PM SOS") << QByteArray("a\x1b_x\x1b\\b\x1b^y\x1b\\c\x1bXz\x1b\\d") << "abcd";
    QTest::newRow("cursor and erase") << QByteArray("a\x1b[2J\x1b[H\x1b[10;20Hb\x1b[Kc") << "abc";
    QTest::newRow("private modes") << QByteArray("\x1b[?1049h\x1b[?25lx\x1b[>4;2m") << "x";
    QTest::newRow("charset") << QByteArray("\x1b(Bx\x1b)0y") << "xy";
    QTest::newRow("two byte escapes") << QByteArray("\x1b=\x1b>\x1b" "7x\x1b" "8") << "x";
    QTest::newRow("c0 controls") << QByteArray("a\x07\x08\x0b\x0c\x0e\rb") << "ab";
    QTest::newRow("c1 as utf8") << QByteArray("a\xc2\x9b" "31mb\xc2\x9d" "0;t\xc2\x9c") << "a31mb0;t";
    QTest::newRow("raw c1 byte") << QByteArray("a\x9b" "31mb") << QString::fromUtf8("a\xef\xbf\xbd" "31mb");
    QTest::newRow("bidi override") << QByteArray("a\xe2\x80\xae" "b\xe2\x81\xa6" "c") << "abc";
    QTest::newRow("CAN aborts") << QByteArray("\x1b[31\x18" "x") << "x";
    QTest::newRow("long params ignored") << QByteArray("\x1b[" + QByteArray(100000, '1') + "mx") << "x";
    QTest::newRow("many params") << QByteArray("\x1b[" + QByteArray(5000, ';') + "31mx") << "x";
    // 4 KiB of string ("52;c;" and 4092 A's, and one more byte) are dropped; the rest shows.
    QTest::newRow("unterminated OSC ends") << QByteArray("\x1b]52;c;" + QByteArray(5000, 'A') + "tail")
                                          << QString(908, QLatin1Char('A')) + QStringLiteral("tail");
    QTest::newRow("ESC ESC") << QByteArray("\x1b\x1b[31mx") << "x";
    QTest::newRow("broken CSI") << QByteArray("\x1b[31\x01x") << "x";
}

void AnsiTextTest::stripped()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, text);
    {
        AnsiDecoder decoder;
        QCOMPARE(plain(decoder.feed(bytes)), text);
    }
    if (bytes.size() < 20000) {
        AnsiDecoder decoder;
        QCOMPARE(plain(byteByByte(decoder, bytes)), text);
    }
}

void AnsiTextTest::styleCarriesAcrossChunks()
{
    AnsiDecoder decoder;
    QVERIFY(decoder.feed("\x1b[1;3").empty());
    const auto runs = decoder.feed("2mgreen\x1b]52;c;");
    QCOMPARE(plain(runs), QStringLiteral("green"));
    QCOMPARE(runs.back().style.foreground, AnsiDecoder::paletteColor(2));
    QVERIFY(runs.back().style.bold);
    QVERIFY(decoder.feed("c2VjcmV0").empty());  // still inside the OSC
    QCOMPARE(plain(decoder.feed("\x07" "after")), QStringLiteral("after"));
    // An unterminated string stops hiding output after 4 KiB.
    AnsiDecoder hostile;
    QCOMPARE(plain(hostile.feed("\x1b]0;" + QByteArray(4094, 'x'))), QString());
    QCOMPARE(plain(hostile.feed("yz")), QStringLiteral("z"));
}

void AnsiTextTest::paneRendersAndBoundsScrollback()
{
    OutputPane pane;
    pane.setScrollbackLines(50);
    for (int i = 0; i < 200; ++i) {
        pane.appendOutput("\x1b[32mline " + QByteArray::number(i) + "\x1b[0m\n");
    }
    QVERIFY(pane.view()->document()->blockCount() <= 50);
    QVERIFY(pane.plainText().contains(QStringLiteral("line 199")));
    QVERIFY(!pane.plainText().contains(QStringLiteral("line 100\n")));
    pane.clear();
    pane.appendOutput("\x1b[31mred\x1b]52;c;aGk=\x07 plain");
    QCOMPARE(pane.plainText(), QStringLiteral("red plain"));
    const QTextBlock block = pane.view()->document()->firstBlock();
    QTextCursor cursor(block);
    cursor.setPosition(block.position() + 1);
    QCOMPARE(cursor.charFormat().foreground().color(), AnsiDecoder::paletteColor(1));
    QVERIFY(!pane.view()->accessibleName().isEmpty());
}

void AnsiTextTest::paneInputLine()
{
    OutputPane pane;
    QSignalSpy entered(&pane, &OutputPane::inputEntered);
    pane.inputLine()->setText(QStringLiteral("yes ü"));
    QTest::keyClick(pane.inputLine(), Qt::Key_Return);
    QCOMPARE(entered.count(), 1);
    QCOMPARE(entered.at(0).at(0).toByteArray(), QByteArray("yes \xc3\xbc\n"));
    QVERIFY(pane.inputLine()->text().isEmpty());
    pane.setInputEnabled(false);
    pane.inputLine()->setText(QStringLiteral("no"));
    QTest::keyClick(pane.inputLine(), Qt::Key_Return);
    QCOMPARE(entered.count(), 1);
}

QTEST_MAIN(AnsiTextTest)
#include "tst_ansi_text.moc"
