// SPDX-License-Identifier: Apache-2.0
// Who the agent is: never host uid 0; as root, a dedicated unprivileged host
// uid seen as 1000 inside; with --sudo, root inside its own namespace only.
#include "runtime/agent_identity.h"

#include <QTest>

#include <sys/wait.h>
#include <unistd.h>

using moat::AgentIdentity;

class AgentIdentityMapping : public QObject {
    Q_OBJECT

private slots:
    void mapLinesMapOneId_data()
    {
        QTest::addColumn<uint>("insideUid");
        QTest::addColumn<uint>("hostUid");
        QTest::addColumn<QString>("line");

        QTest::newRow("root mode") << 1000u << 2147418112u << "1000 2147418112 1\n";
        QTest::newRow("root mode, --sudo") << 0u << 2147418112u << "0 2147418112 1\n";
        QTest::newRow("ordinary user") << 1001u << 1001u << "1001 1001 1\n";
        QTest::newRow("ordinary user, --sudo") << 0u << 1001u << "0 1001 1\n";
    }

    void mapLinesMapOneId()
    {
        QFETCH(uint, insideUid);
        QFETCH(uint, hostUid);
        QFETCH(QString, line);

        AgentIdentity id;
        id.insideUid = insideUid;
        id.hostUid = hostUid;
        id.insideGid = insideUid;
        id.hostGid = hostUid;
        QCOMPARE(QString::fromStdString(id.uidMapLine()), line);
        QCOMPARE(QString::fromStdString(id.gidMapLine()), line);

        // Gids are mapped on their own, not copied from the uids.
        id.insideGid = 7;
        id.hostGid = 8;
        QCOMPARE(QString::fromStdString(id.gidMapLine()), QString("7 8 1\n"));
        QCOMPARE(QString::fromStdString(id.uidMapLine()), line);
    }

    void rootModeUsesTheDedicatedUid_data()
    {
        QTest::addColumn<bool>("sudo");
        QTest::newRow("agent") << false;
        QTest::newRow("--sudo") << true;
    }

    void rootModeUsesTheDedicatedUid()
    {
        QFETCH(bool, sudo);
        if (geteuid() != 0) {
            QSKIP("root mode is chosen only when the invoker is root; this test runs as an ordinary user");
        }
        const auto id = AgentIdentity::forCurrentProcess(sudo);
        QVERIFY(id.ok());
        QVERIFY(id->privilegedInvoker);
        QCOMPARE(id->hostUid, uid_t(2147418112));
        QCOMPARE(id->hostGid, gid_t(2147418112));
        QCOMPARE(AgentIdentity::kRootModeHostId, uid_t(0x7fff0000));
        if (sudo) {
            QCOMPARE(id->insideUid, uid_t(0));
            QCOMPARE(id->insideGid, gid_t(0));
            QCOMPARE(id->name, std::string("root"));
            QCOMPARE(id->home, std::string("/root"));
            QCOMPARE(id->uidMapLine(), std::string("0 2147418112 1\n"));
        } else {
            QCOMPARE(id->insideUid, uid_t(1000));
            QCOMPARE(id->insideGid, gid_t(1000));
            QCOMPARE(id->name, std::string("agent"));
            QCOMPARE(id->home, std::string("/home/agent"));
            QCOMPARE(id->uidMapLine(), std::string("1000 2147418112 1\n"));
        }
    }

    // An ordinary invoker keeps its own uid. Run in a child that drops to an
    // unprivileged uid when the test itself runs as root.
    void ordinaryUserKeepsItsUid_data()
    {
        QTest::addColumn<uint>("uid");
        QTest::addColumn<bool>("sudo");
        QTest::addColumn<QString>("expected");  // "hostUid insideUid name home"

        QTest::newRow("nobody") << 65534u << false << "65534 65534 nobody /home/nobody";
        QTest::newRow("nobody, --sudo") << 65534u << true << "65534 0 root /root";
        QTest::newRow("uid without a passwd entry") << 4242424u << false << "4242424 4242424 agent /home/agent";
    }

    void ordinaryUserKeepsItsUid()
    {
        QFETCH(uint, uid);
        QFETCH(bool, sudo);
        QFETCH(QString, expected);

        if (geteuid() != 0) {
            QSKIP("needs root to become the test uid; see rootModeUsesTheDedicatedUid for the other mode");
        }
        int fds[2];
        QCOMPARE(pipe(fds), 0);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            close(fds[0]);
            std::string answer = "setresuid failed";
            if (setresgid(uid, uid, uid) == 0 && setresuid(uid, uid, uid) == 0) {
                const auto id = AgentIdentity::forCurrentProcess(sudo);
                answer = id.ok() ? std::to_string(id->hostUid) + " " + std::to_string(id->insideUid) + " " + id->name +
                                       " " + id->home + (id->privilegedInvoker ? " privileged" : "") +
                                       (id->hostGid == uid ? "" : " wrong-gid")
                                 : id.error().message();
            }
            (void)!write(fds[1], answer.data(), answer.size());
            _exit(0);
        }
        close(fds[1]);
        char buffer[256];
        ssize_t total = 0;
        ssize_t n = 0;
        while ((n = read(fds[0], buffer + total, sizeof buffer - 1 - size_t(total))) > 0) {
            total += n;
        }
        close(fds[0]);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QCOMPARE(QString::fromUtf8(buffer, total), expected);
    }
};

QTEST_GUILESS_MAIN(AgentIdentityMapping)
#include "tst_agent_identity_mapping.moc"
