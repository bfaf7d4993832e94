// SPDX-License-Identifier: Apache-2.0
// The command list of a git push, read from the head of its request body:
// exactly the refs the server will update, found in any split of the bytes,
// within bounds, and an error (never a guess) for anything else.
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "policy/git_push.h"

using moat::RefUpdate;

namespace {

const std::string kOld(40, 'a');
const std::string kNew = "0123456789abcdef0123456789abcdef01234567";
const std::string kZero(40, '0');

std::string pkt(const std::string& payload)
{
    char length[5];
    std::snprintf(length, sizeof length, "%04x", static_cast<unsigned>(payload.size() + 4));
    return length + payload;
}

std::string command(const std::string& oldOid, const std::string& newOid, const std::string& ref)
{
    return oldOid + " " + newOid + " " + ref;
}

// What git 2.39 sends for `git push origin feature main` over smart HTTP.
std::string gitBody()
{
    return pkt(command(kOld, kNew, "refs/heads/feature") + std::string(1, '\0') +
               " report-status side-band-64k object-format=sha1 agent=git/2.39.2\n") +
           pkt(command(kZero, kNew, "refs/heads/main") + "\n") + "0000" + "PACK\x00\x00\x00\x02 and the rest";
}

// Runs git in dir with input on stdin; its stdout, or a failed test.
QByteArray git(const QString& dir, const QStringList& arguments, const QByteArray& input = {})
{
    QProcess process;
    process.setWorkingDirectory(dir);
    process.start(QStringLiteral("git"), arguments);
    process.write(input);
    process.closeWriteChannel();
    process.waitForFinished(30000);
    if (process.exitStatus() != QProcess::NormalExit) {
        qWarning("git %s: %s", qPrintable(arguments.join(' ')), process.readAllStandardError().constData());
    }
    return process.readAllStandardOutput();
}

}  // namespace

class GitPushTest : public QObject {
    Q_OBJECT

private slots:
    void readsTheRefUpdatesAndStopsAtTheFlush()
    {
        const std::string body = gitBody();
        auto parsed = moat::parseReceivePackCommands(body, true);
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message().c_str());
        QVERIFY(parsed->complete);
        const auto& commands = parsed->commands;
        QCOMPARE(commands.updates.size(), size_t(2));
        QVERIFY(commands.updates[0] == (RefUpdate{kOld, kNew, "refs/heads/feature"}));
        QVERIFY(commands.updates[1] == (RefUpdate{kZero, kNew, "refs/heads/main"}));
        QVERIFY(commands.updates[1].isCreate());
        QVERIFY(!commands.updates[0].isDelete());
        QCOMPARE(commands.capabilities.at(0), std::string("report-status"));
        QCOMPARE(commands.capabilities.size(), size_t(4));
        QCOMPARE(body.substr(commands.consumed, 4), std::string("PACK"));
    }

    // What real git sends: `git send-pack --stateless-rpc` is what git's
    // HTTP transport runs for a push; the body it POSTs is the payload of
    // the pkt-lines send-pack writes (remote-curl.c strips that framing).
    void readsTheBodyRealGitSends_data()
    {
        QTest::addColumn<QString>("objectFormat");
        QTest::newRow("sha1") << "sha1";
        QTest::newRow("sha256") << "sha256";
    }
    void readsTheBodyRealGitSends()
    {
        QFETCH(QString, objectFormat);
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty()) {
            QSKIP("git is not installed");
        }
        QTemporaryDir dir;
        const QString work = dir.path() + "/work";
        git(dir.path(), {"init", "-q", "--bare", "--object-format=" + objectFormat, "server.git"});
        git(dir.path(), {"init", "-q", "--object-format=" + objectFormat, "-b", "trunk", "work"});
        git(work, {"-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "--allow-empty", "-m", "1"});
        git(work, {"branch", "feature/x"});
        const QByteArray advertisement =
            git(dir.path(), {"receive-pack", "--stateless-rpc", "--advertise-refs", "server.git"});
        QVERIFY(!advertisement.isEmpty());
        const QByteArray refspecs = QByteArray::fromStdString(pkt("refs/heads/trunk:refs/heads/main\n") +
                                                             pkt("refs/heads/feature/x:refs/heads/feature/x\n") +
                                                             "0000");
        const QByteArray framed = git(work, {"send-pack", "--stateless-rpc", "--helper-status", "--stdin",
                                             "http://git.example/server.git"},
                                      refspecs + advertisement);
        std::string body;
        for (qsizetype at = 0; at + 4 <= framed.size();) {
            const qsizetype length = framed.mid(at, 4).toInt(nullptr, 16);
            if (length < 4) {
                break;
            }
            body += framed.mid(at + 4, length - 4).toStdString();
            at += length;
        }
        auto parsed = moat::parseReceivePackCommands(body, true);
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message().c_str());
        const auto& updates = parsed->commands.updates;
        QCOMPARE(updates.size(), size_t(2));
        QCOMPARE(updates[0].refName, std::string("refs/heads/main"));
        QCOMPARE(updates[1].refName, std::string("refs/heads/feature/x"));
        QVERIFY(updates[0].isCreate() && !updates[0].isDelete());
        QCOMPARE(updates[0].newOid.size(), size_t(objectFormat == "sha1" ? 40 : 64));
        QCOMPARE(body.substr(parsed->commands.consumed, 4), std::string("PACK"));
    }

    void everyPrefixWaitsAndTheWholeGivesTheSameAnswer()
    {
        const std::string body = gitBody();
        const size_t flushEnd = body.find("0000PACK") + 4;
        for (size_t n = 0; n < flushEnd; ++n) {
            auto parsed = moat::parseReceivePackCommands(std::string_view(body).substr(0, n), false);
            QVERIFY2(parsed.ok(), qPrintable(QString::number(n)));
            QVERIFY2(!parsed->complete, qPrintable(QString::number(n)));
            QVERIFY2(!moat::parseReceivePackCommands(std::string_view(body).substr(0, n), true).ok(),
                     qPrintable(QString::number(n)));
        }
        auto parsed = moat::parseReceivePackCommands(std::string_view(body).substr(0, flushEnd), false);
        QVERIFY(parsed.ok() && parsed->complete);
        QCOMPARE(parsed->commands.updates.size(), size_t(2));
    }

    void sha256ShallowAndDeletesAreRead()
    {
        const std::string old256(64, 'b');
        const std::string zero256(64, '0');
        const std::string body =
            pkt("shallow " + std::string(64, 'c') + "\n") +
            pkt(command(old256, zero256, "refs/tags/v1") + std::string(1, '\0') + "object-format=sha256") + "0000";
        auto parsed = moat::parseReceivePackCommands(body, true);
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message().c_str());
        QCOMPARE(parsed->commands.shallowLines, size_t(1));
        QVERIFY(parsed->commands.updates.at(0).isDelete());
        // Upper-case hex is read, and stored lower-case.
        auto upper =
            moat::parseReceivePackCommands(pkt(command(std::string(40, 'A'), kNew, "refs/heads/x")) + "0000", true);
        QVERIFY(upper.ok());
        QCOMPARE(upper->commands.updates.at(0).oldOid, kOld);
    }

    void malformedBodiesAreErrors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("says");
        const std::string ok = command(kOld, kNew, "refs/heads/x");
        auto row = [](const char* name, const std::string& body, const char* says) {
            QTest::newRow(name) << QByteArray(body.data(), static_cast<int>(body.size())) << QString(says);
        };
        row("length not hex", "00zz" + ok, "not a pkt-line length");
        row("delimiter packet", "0001" + pkt(ok) + "0000", "special packet");
        row("empty packet", "0004" + pkt(ok) + "0000", "special packet");
        row("length 3", "0003", "special packet");
        row("not three fields", pkt(kOld + " " + kNew) + "0000", "is not 'old-id new-id refname'");
        row("short id", pkt(command(kOld.substr(1), kNew, "refs/heads/x")) + "0000", "40-digit");
        row("non-hex id", pkt(command(std::string(40, 'g'), kNew, "refs/heads/x")) + "0000", "40-digit");
        row("sha256 ids without the capability",
            pkt(command(std::string(64, 'a'), std::string(64, 'b'), "refs/x")) + "0000", "40-digit");
        row("two spaces", pkt(kOld + "  " + kNew + " refs/heads/x") + "0000", "is not");
        row("ref outside refs/", pkt(command(kOld, kNew, "HEAD")) + "0000", "does not start with refs/");
        row("ref with dot-dot", pkt(command(kOld, kNew, "refs/heads/../main")) + "0000", "'..'");
        row("ref with space", pkt(command(kOld, kNew, "refs/heads/a b")) + "0000", "space");
        row("ref with glob", pkt(command(kOld, kNew, "refs/heads/*")) + "0000", "space");
        row("ref ending .lock", pkt(command(kOld, kNew, "refs/heads/main.lock")) + "0000", ".lock");
        row("ref with //", pkt(command(kOld, kNew, "refs//main")) + "0000", "empty component");
        row("NUL after the first line", pkt(ok) + pkt(ok + std::string(1, '\0') + "x") + "0000", "NUL");
        row("shallow after a command", pkt(ok) + pkt("shallow " + kOld) + "0000", "is not");
        row("unknown object format", pkt(ok + std::string(1, '\0') + "object-format=md5") + "0000", "md5");
        row("signed push", pkt("push-cert" + std::string(1, '\0') + "report-status\n") + "0000", "signed push");
        row("cut before the flush", pkt(ok), "ends before");
        row("cut inside a line", pkt(ok).substr(0, 30), "ends before");
        row("nothing at all", "", "ends before");
    }
    void malformedBodiesAreErrors()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, says);
        auto parsed = moat::parseReceivePackCommands(std::string_view(body.constData(), size_t(body.size())), true);
        QVERIFY(!parsed.ok());
        const QString message = QString::fromStdString(parsed.error().message());
        QVERIFY2(message.contains(says), qPrintable(message));
    }

    void boundsHoldWithoutTheFlush()
    {
        const std::string line = pkt(command(kOld, kNew, "refs/heads/x"));
        std::string many;
        for (int i = 0; i < 4; ++i) {
            many += line;
        }
        auto tooMany = moat::parseReceivePackCommands(many + "0000", true, {3, 1 << 20});
        QVERIFY(!tooMany.ok());
        QVERIFY(QString::fromStdString(tooMany.error().message()).contains("more than 3 refs"));
        QVERIFY(moat::parseReceivePackCommands(many + "0000", true, {4, 1 << 20}).ok());
        // No flush yet and already over the byte limit: an error now, not a
        // request for more bytes that would grow without end.
        auto tooLong = moat::parseReceivePackCommands(many, false, {100, 2 * line.size()});
        QVERIFY(!tooLong.ok());
        QVERIFY(QString::fromStdString(tooLong.error().message()).contains("longer than"));
        auto garbage = moat::parseReceivePackCommands(std::string(300, 'f'), false, {100, 200});
        QVERIFY(!garbage.ok());
    }

    void onlyUncompressedBodiesAreRead()
    {
        QVERIFY(moat::checkReceivePackEncoding("").ok());
        QVERIFY(moat::checkReceivePackEncoding(" Identity ").ok());
        const auto gzip = moat::checkReceivePackEncoding("gzip");
        QVERIFY(!gzip.ok());
        QVERIFY(QString::fromStdString(gzip.error().message()).contains("Content-Encoding 'gzip'"));
        QVERIFY(!moat::checkReceivePackEncoding("deflate").ok());
        QVERIFY(!moat::checkReceivePackEncoding("gzip, identity").ok());
    }

    // git's probe before a large push is the flush-pkt alone; anything more,
    // or an empty command list followed by bytes, is not.
    void onlyTheBareFlushIsGitsProbe()
    {
        QVERIFY(moat::isReceivePackProbe("0000"));
        QVERIFY(!moat::isReceivePackProbe(""));
        QVERIFY(!moat::isReceivePackProbe("0000PACK"));
        QVERIFY(!moat::isReceivePackProbe("00000000"));
        QVERIFY(!moat::isReceivePackProbe(pkt(command(kZero, kNew, "refs/heads/main")) + "0000"));
    }
};

QTEST_GUILESS_MAIN(GitPushTest)
#include "tst_git_push.moc"
