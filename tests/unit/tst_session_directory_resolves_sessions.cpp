// SPDX-License-Identifier: Apache-2.0
// SessionDirectory (app/cli: moat ps, logs, stop, renew): reads sessions from
// their directories, resolves an id, a unique prefix or a name, refuses an
// ambiguous prefix with the candidates, and shows a "running" session whose
// supervisor is gone as failed.

#include "session_directory.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using moat::MoatPaths;
using moat::cli::SessionDirectory;

class SessionDirectoryResolvesSessions : public QObject
{
    Q_OBJECT

private slots:
    void init();

    void listsOldestFirstWithPsFields();
    void resolvesIdPrefixAndName();
    void refusesAnAmbiguousPrefixNamingTheCandidates();
    void unknownSessionSaysWhereItLooked();
    void runningWithoutItsSupervisorIsFailed();
    void refusesIdsThatAreNotIds();

private:
    void addSession(const QString& id, const QString& name, const QByteArray& status);
    std::unique_ptr<QTemporaryDir> state_;
    MoatPaths paths_;
};

void SessionDirectoryResolvesSessions::init()
{
    state_ = std::make_unique<QTemporaryDir>();
    QVERIFY(state_->isValid());
    paths_.stateDir = state_->path().toStdString();
    QVERIFY(QDir().mkpath(state_->filePath(QStringLiteral("sessions"))));
}

void SessionDirectoryResolvesSessions::addSession(const QString& id, const QString& name, const QByteArray& status)
{
    const QString dir = state_->filePath(QStringLiteral("sessions/") + id);
    QVERIFY(QDir().mkpath(dir));
    QFile spec(dir + QStringLiteral("/spec.json"));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(QStringLiteral(R"({"version":1,"session":"%1","name":"%2","image":{"kind":"host","path":""}})")
                   .arg(id, name)
                   .toUtf8());
    spec.close();
    if (!status.isEmpty()) {
        QFile file(dir + QStringLiteral("/status.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(status);
    }
    QTest::qWait(15);  // distinct modification times: the order is by spec.json's
}

void SessionDirectoryResolvesSessions::listsOldestFirstWithPsFields()
{
    addSession(QStringLiteral("aaaa000000000001"), QStringLiteral("first"),
               R"({"state":"exited","exit_code":7,"started":"2026-12-01T10:00:00Z","expires":"2026-12-01T18:00:00Z"})");
    addSession(QStringLiteral("0000000000000002"), QStringLiteral("second"), R"({"state":"stopped","exit_code":143})");
    const auto sessions = SessionDirectory(paths_).list();
    QCOMPARE(sessions.size(), size_t(2));
    QCOMPARE(sessions[0].id, std::string("aaaa000000000001"));
    const auto ps = sessions[0].toPsJson();
    for (const char* field : {"id", "name", "state", "image", "flags", "started", "expires", "exit_code"}) {
        QVERIFY2(ps.contains(field), field);
    }
    QCOMPARE(ps["state"].get<std::string>(), std::string("exited"));
    QCOMPARE(ps["exit_code"].get<int>(), 7);
    QCOMPARE(ps["image"].get<std::string>(), std::string("host"));
    QCOMPARE(sessions[1].toPsJson()["state"].get<std::string>(), std::string("stopped"));
}

void SessionDirectoryResolvesSessions::resolvesIdPrefixAndName()
{
    addSession(QStringLiteral("abcdef0000000001"), QStringLiteral("build"), R"({"state":"exited","exit_code":0})");
    addSession(QStringLiteral("123456000000000a"), QStringLiteral("build"), R"({"state":"exited","exit_code":1})");
    const SessionDirectory sessions(paths_);
    QCOMPARE(sessions.resolve("abcdef0000000001")->id, std::string("abcdef0000000001"));
    QCOMPARE(sessions.resolve("abc")->id, std::string("abcdef0000000001"));
    // A name given twice: the newest session of that name.
    QCOMPARE(sessions.resolve("build")->id, std::string("123456000000000a"));
}

void SessionDirectoryResolvesSessions::refusesAnAmbiguousPrefixNamingTheCandidates()
{
    addSession(QStringLiteral("abc0000000000001"), QStringLiteral("one"), R"({"state":"exited","exit_code":0})");
    addSession(QStringLiteral("abc0000000000002"), QStringLiteral("two"), R"({"state":"exited","exit_code":0})");
    auto resolved = SessionDirectory(paths_).resolve("abc");
    QVERIFY(!resolved.ok());
    const std::string message = resolved.error().message();
    QVERIFY2(message.find("abc0000000000001") != std::string::npos &&
                 message.find("abc0000000000002") != std::string::npos,
             message.c_str());
}

void SessionDirectoryResolvesSessions::unknownSessionSaysWhereItLooked()
{
    auto resolved = SessionDirectory(paths_).resolve("nosuch");
    QVERIFY(!resolved.ok());
    QVERIFY2(resolved.error().message().find(paths_.stateDir) != std::string::npos, resolved.error().message().c_str());
}

void SessionDirectoryResolvesSessions::runningWithoutItsSupervisorIsFailed()
{
    // This test process is not a moat-supervisor: its pid is a dead supervisor's.
    addSession(QStringLiteral("dead000000000001"), QStringLiteral("crashed"),
               QStringLiteral(R"({"state":"running","supervisor_pid":%1})").arg(::getpid()).toUtf8());
    addSession(QStringLiteral("fresh00000000001"), QStringLiteral("starting"), QByteArray());
    const SessionDirectory sessions(paths_);
    const auto crashed = sessions.resolve("crashed");
    QCOMPARE(crashed->state, std::string("failed"));
    QVERIFY(!crashed->running());
    QCOMPARE(crashed->toPsJson()["exit_code"].get<int>(), 125);
    // No status.json yet, written a moment ago: still starting.
    QCOMPARE(sessions.resolve("starting")->state, std::string("starting"));
}

void SessionDirectoryResolvesSessions::refusesIdsThatAreNotIds()
{
    addSession(QStringLiteral("abc0000000000001"), QStringLiteral("one"), R"({"state":"exited","exit_code":0})");
    // A path must never be read as a session's directory.
    QVERIFY(!SessionDirectory(paths_).read("../sessions/abc0000000000001").ok());
    QVERIFY(!SessionDirectory(paths_).resolve("../../etc").ok());
}

QTEST_GUILESS_MAIN(SessionDirectoryResolvesSessions)
#include "tst_session_directory_resolves_sessions.moc"
