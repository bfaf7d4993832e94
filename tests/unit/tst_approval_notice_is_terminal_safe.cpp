// SPDX-License-Identifier: Apache-2.0
// The notice `moat run` prints when the agent's request waits for a person.
// The agent wrote the flags, the command and the reason: none of it may
// reach the user's terminal as a control sequence (a cleared screen, a
// faked "approved" line, a title change, OSC 52 clipboard writes).

#include "approval_notice.h"
#include "terminal_text.h"

#include <QTest>

using moat::cli::approvalNotice;
using moat::cli::terminalSafe;

class ApprovalNoticeIsTerminalSafe : public QObject
{
    Q_OBJECT

private slots:
    void controlCharactersBecomeQuestionMarks_data();
    void controlCharactersBecomeQuestionMarks();
    void longTextIsCutAtACharacterBoundary();
    void theNoticeSaysWhatWhoAndHowToAnswer();
    void aHostileRequestCannotReachTheTerminal();
    void aHeldHttpRequestSaysWhatAndHowToAnswer();
    void aHostileHttpRequestCannotReachTheTerminal();
};

void ApprovalNoticeIsTerminalSafe::controlCharactersBecomeQuestionMarks_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("shown");
    QTest::newRow("plain") << QByteArray("pip install") << QByteArray("pip install");
    QTest::newRow("utf-8 kept") << QByteArray("caf\xc3\xa9 \xe2\x9c\x93") << QByteArray("caf\xc3\xa9 \xe2\x9c\x93");
    QTest::newRow("escape") << QByteArray("\x1b[2Jcleared") << QByteArray("?[2Jcleared");
    QTest::newRow("newline and CR") << QByteArray("a\r\nb") << QByteArray("a??b");
    QTest::newRow("bell and DEL") << QByteArray("a\x07\x7f") << QByteArray("a??");
    QTest::newRow("C1 CSI") << QByteArray("a\xc2\x9b" "31mred") << QByteArray("a?31mred");
    QTest::newRow("C1 OSC") << QByteArray("\xc2\x9d" "52;c;x") << QByteArray("?52;c;x");
    QTest::newRow("stray continuation") << QByteArray("a\x80z") << QByteArray("a?z");
    QTest::newRow("truncated sequence") << QByteArray("a\xe2\x9c") << QByteArray("a??");
    // A lead byte must not carry the bytes after it past the filter.
    QTest::newRow("lead byte before ESC") << QByteArray("\xe0\x1b]0;x\x07") << QByteArray("??]0;x?");
    QTest::newRow("two-byte lead before BEL") << QByteArray("\xc3\x07") << QByteArray("??");
    QTest::newRow("four-byte lead before ESC") << QByteArray("\xf0\x9f\x1b[2J") << QByteArray("???[2J");
    QTest::newRow("overlong lead") << QByteArray("\xc0\xaf") << QByteArray("??");
    QTest::newRow("beyond U+10FFFF") << QByteArray("\xf5\x80\x80\x80") << QByteArray("????");
    QTest::newRow("emoji kept") << QByteArray("\xf0\x9f\x90\x9f") << QByteArray("\xf0\x9f\x90\x9f");
}

void ApprovalNoticeIsTerminalSafe::controlCharactersBecomeQuestionMarks()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, shown);
    QCOMPARE(QByteArray::fromStdString(terminalSafe(text.toStdString(), 1000)), shown);
}

void ApprovalNoticeIsTerminalSafe::longTextIsCutAtACharacterBoundary()
{
    QCOMPARE(terminalSafe("abcdef", 4), std::string("abcd..."));
    // "é" is two bytes: it is not split.
    QCOMPARE(terminalSafe("abc\xc3\xa9z", 4), std::string("abc..."));
    QCOMPARE(terminalSafe("abc", 3), std::string("abc"));
}

void ApprovalNoticeIsTerminalSafe::theNoticeSaysWhatWhoAndHowToAnswer()
{
    const nlohmann::json request = {{"id", "r-0123456789ab"},
                                    {"session", "feedfacecafebeef"},
                                    {"flags", {"--allow-host", "pypi.org", "--sudo"}},
                                    {"command", {"pytest", "-q"}},
                                    {"reason", "install the test deps"},
                                    {"expires", "2026-12-01T12:00:00Z"}};
    const QString notice = QString::fromStdString(approvalNotice(request));
    QVERIFY2(notice.contains(QLatin1String("--allow-host pypi.org --sudo")), qPrintable(notice));
    QVERIFY2(notice.contains(QLatin1String("running pytest -q")), qPrintable(notice));
    QVERIFY2(notice.contains(QLatin1String("(the agent's words): \"install the test deps\"")), qPrintable(notice));
    QVERIFY2(notice.contains(QLatin1String("moat approve r-0123456789ab or moat deny r-0123456789ab")),
             qPrintable(notice));
    QVERIFY2(notice.contains(QLatin1String("no answer by 2026-12-01T12:00:00Z is a deny")), qPrintable(notice));
}

void ApprovalNoticeIsTerminalSafe::aHostileRequestCannotReachTheTerminal()
{
    const std::string longReason(5000, 'x');
    const nlohmann::json request = {
        {"id", "r-1\x1b]0;owned\x07"},
        {"flags", {"--allow-host", "evil.example\x1b[1A\x1b[2K"}},
        {"command", {"sh", "-c", "\r\nmoat: request approved"}},
        {"reason", longReason + "\x1b[31m"},
        {"expires", 42},  // not a string: left out
    };
    const std::string notice = approvalNotice(request);
    for (char c : notice) {
        const auto byte = static_cast<unsigned char>(c);
        QVERIFY2(byte >= 0x20 && byte != 0x7f, qPrintable(QString::fromStdString(notice)));
    }
    QVERIFY(notice.size() < 1200);
    QVERIFY(notice.find("no answer by") == std::string::npos);
}

void ApprovalNoticeIsTerminalSafe::aHeldHttpRequestSaysWhatAndHowToAnswer()
{
    const nlohmann::json request = {{"id", "h-0123456789ab"},
                                    {"session", "feedfacecafebeef"},
                                    {"kind", "http"},
                                    {"http",
                                     {{"method", "POST"},
                                      {"host", "api.github.com"},
                                      {"port", 443},
                                      {"path", "/repos/o/r/issues"},
                                      {"rule", "POST api.github.com /** ask"}}},
                                    {"expires", "2026-12-01T12:00:00Z"}};
    const QString notice = QString::fromStdString(approvalNotice(request));
    QVERIFY2(notice.contains(QLatin1String(
                 "POST api.github.com/repos/o/r/issues (rule 'POST api.github.com /** ask') is held until you answer")),
             qPrintable(notice));
    QVERIFY2(notice.contains(QLatin1String("moat approve h-0123456789ab or moat deny h-0123456789ab")),
             qPrintable(notice));
    QVERIFY2(notice.contains(QLatin1String("no answer by 2026-12-01T12:00:00Z is a deny")), qPrintable(notice));
    QVERIFY(!notice.contains(QLatin1String("successor")));
    // A push names its refs; a port other than 80 and 443 is shown.
    const nlohmann::json push = {{"method", "POST"},
                                 {"host", "git.example"},
                                 {"port", 8443},
                                 {"path", "/o/r.git/git-receive-pack"},
                                 {"refs", {"refs/heads/main"}},
                                 {"rule", "push git.example o/r refs/heads/main ask"}};
    QCOMPARE(moat::cli::httpRequestLine(push),
             std::string("POST git.example:8443/o/r.git/git-receive-pack (updates refs/heads/main) "
                         "(rule 'push git.example o/r refs/heads/main ask')"));
}

void ApprovalNoticeIsTerminalSafe::aHostileHttpRequestCannotReachTheTerminal()
{
    const nlohmann::json request = {
        {"id", "h-1\x1b]0;owned\x07"},
        {"kind", "http"},
        {"http",
         {{"method", "GET\x1b[2J"},
          {"host", "evil.example\r\nmoat: allowed"},
          {"port", 443},
          {"path", "/" + std::string(5000, 'p') + "\x1b[31m"},
          {"refs", {"refs/heads/\x9b" "31m"}},
          {"rule", "GET evil.example /** ask"}}},
    };
    const std::string notice = approvalNotice(request);
    for (char c : notice) {
        const auto byte = static_cast<unsigned char>(c);
        QVERIFY2(byte >= 0x20 && byte != 0x7f, qPrintable(QString::fromStdString(notice)));
    }
    QVERIFY(notice.find("\xc2\x9b") == std::string::npos);
    QVERIFY(notice.size() < 1200);
}

QTEST_APPLESS_MAIN(ApprovalNoticeIsTerminalSafe)
#include "tst_approval_notice_is_terminal_safe.moc"
