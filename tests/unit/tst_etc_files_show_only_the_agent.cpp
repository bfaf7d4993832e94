// SPDX-License-Identifier: Apache-2.0
// The sandbox's /etc names the agent and no host account, points name
// resolution at the sandbox's own loopback, and takes from the host only an
// allowlist that never includes credentials or host identity.
#include "runtime/etc_files.h"

#include <QRegularExpression>
#include <QStringList>
#include <QTest>

using moat::AgentIdentity;
using moat::EtcFiles;

namespace {

AgentIdentity agent(uid_t insideUid, const std::string& name, const std::string& home)
{
    AgentIdentity id;
    id.hostUid = AgentIdentity::kRootModeHostId;
    id.hostGid = AgentIdentity::kRootModeHostId;
    id.insideUid = insideUid;
    id.insideGid = insideUid;
    id.name = name;
    id.home = home;
    return id;
}

// "name:x:uid:gid:..." lines → their first fields; every line well formed.
QStringList names(const std::string& text, int fields)
{
    QStringList result;
    const QString all = QString::fromStdString(text);
    if (!all.endsWith('\n')) {
        return {QStringLiteral("<no final newline>")};
    }
    for (const QString& line : all.split('\n', Qt::SkipEmptyParts)) {
        const QStringList parts = line.split(':');
        if (parts.size() != fields) {
            return {QStringLiteral("<malformed: %1>").arg(line)};
        }
        result << parts.front();
    }
    return result;
}

}  // namespace

class EtcFilesShowOnlyTheAgent : public QObject {
    Q_OBJECT

private slots:
    void passwdNamesTheAgentAndNoOtherAccount_data()
    {
        QTest::addColumn<uint>("uid");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("home");
        QTest::addColumn<QStringList>("accounts");
        QTest::addColumn<QString>("agentLine");

        QTest::newRow("root mode") << 1000u << "agent" << "/home/agent" << QStringList{"root", "agent", "nobody"}
                                   << "agent:x:1000:1000:moat agent:/home/agent:/bin/bash";
        QTest::newRow("ordinary user") << 1001u << "alice" << "/home/alice" << QStringList{"root", "alice", "nobody"}
                                       << "alice:x:1001:1001:moat agent:/home/alice:/bin/bash";
        QTest::newRow("--sudo: only root") << 0u << "root" << "/root" << QStringList{"root", "nobody"}
                                           << "root:x:0:0:root:/root:/bin/bash";
    }

    void passwdNamesTheAgentAndNoOtherAccount()
    {
        QFETCH(uint, uid);
        QFETCH(QString, name);
        QFETCH(QString, home);
        QFETCH(QStringList, accounts);
        QFETCH(QString, agentLine);

        const std::string passwd = EtcFiles::passwd(agent(uid, name.toStdString(), home.toStdString()), "/bin/bash");
        QCOMPARE(names(passwd, 7), accounts);
        QVERIFY2(QString::fromStdString(passwd).split('\n').contains(agentLine), passwd.c_str());
        QVERIFY(QString::fromStdString(passwd).contains("nobody:x:65534:65534:"));
    }

    void groupNamesTheAgentAndNoOtherGroup_data()
    {
        QTest::addColumn<uint>("gid");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");

        QTest::newRow("root mode") << 1000u << "agent" << "root:x:0:\nagent:x:1000:\nnogroup:x:65534:\n";
        QTest::newRow("ordinary user") << 1001u << "alice" << "root:x:0:\nalice:x:1001:\nnogroup:x:65534:\n";
        QTest::newRow("--sudo: only root") << 0u << "root" << "root:x:0:\nnogroup:x:65534:\n";
    }

    void groupNamesTheAgentAndNoOtherGroup()
    {
        QFETCH(uint, gid);
        QFETCH(QString, name);
        QFETCH(QString, expected);

        const std::string group = EtcFiles::group(agent(gid, name.toStdString(), "/home/x"));
        QCOMPARE(QString::fromStdString(group), expected);
        // No supplementary members: the agent is in no host group.
        QCOMPARE(names(group, 4).size(), expected.count('\n'));
        for (const QString& line : QString::fromStdString(group).split('\n', Qt::SkipEmptyParts)) {
            QVERIFY2(line.endsWith(':'), qPrintable(line));
        }
    }

    void hostsNamesTheSandbox()
    {
        const QString hosts = QString::fromStdString(EtcFiles::hosts("moat-0123abcd"));
        QVERIFY(hosts.endsWith('\n'));
        const QStringList lines = hosts.split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines.contains("127.0.0.1\tlocalhost"));
        QVERIFY(lines.contains("127.0.1.1\tmoat-0123abcd"));
        for (const QString& line : lines) {
            const QString address = line.section('\t', 0, 0);
            QVERIFY2(address.startsWith("127.") || address == "::1", qPrintable(line));
        }
    }

    void resolverPointsAtTheSandboxLoopback()
    {
        const QString resolv = QString::fromStdString(EtcFiles::resolvConf());
        const QStringList servers = resolv.split('\n').filter(QRegularExpression("^nameserver"));
        QCOMPARE(servers, QStringList{"nameserver 127.0.0.1"});
        QVERIFY(QString::fromStdString(EtcFiles::nsswitch()).contains("passwd: files\n"));
    }

    void hostEntries_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("allowed");

        // Credentials, privilege and host identity stay outside.
        for (const char* name : {"shadow", "gshadow", "shadow-", "passwd-", "sudoers", "sudoers.d", "ssh", "machine-id",
                                 "subuid", "subgid", "security", "pam.d", "krb5.keytab", "ssl/private", "docker",
                                 "NetworkManager", "wpa_supplicant", "cron.d", "polkit-1", "libvirt", "", ".", "..",
                                 "ssl/../shadow", "SHADOW", "ssl ", "ld.so.preload"}) {
            QTest::newRow(*name ? name : "(empty)") << name << false;
        }
        // What tools need to run.
        for (const char* name : {"ld.so.cache", "ld.so.conf", "ld.so.conf.d", "ssl", "ca-certificates", "alternatives",
                                 "localtime", "os-release", "profile", "terminfo"}) {
            QTest::newRow(name) << name << true;
        }
    }

    void hostEntries()
    {
        QFETCH(QString, name);
        QFETCH(bool, allowed);
        QCOMPARE(EtcFiles::hostEntryAllowed(name.toStdString()), allowed);
    }

    void synthesizedEntries_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("synthesized");

        for (const char* name : {"passwd", "group", "hosts", "resolv.conf", "hostname", "nsswitch.conf"}) {
            QTest::newRow(name) << name << true;
        }
        for (const char* name : {"ssl", "ld.so.cache", "profile", ""}) {
            QTest::newRow(*name ? name : "(empty)") << name << false;
        }
    }

    void synthesizedEntries()
    {
        QFETCH(QString, name);
        QFETCH(bool, synthesized);
        QCOMPARE(EtcFiles::synthesized(name.toStdString()), synthesized);
    }

    // Whatever moat writes itself is never also taken from the host: one
    // source per entry, and the host's account files never win.
    void noEntryIsBothSynthesizedAndFromTheHost()
    {
        for (const char* name : {"passwd", "group", "hosts", "hostname", "resolv.conf", "nsswitch.conf", "mtab",
                                 "shadow", "gshadow"}) {
            QVERIFY2(EtcFiles::synthesized(name), name);
            QVERIFY2(!EtcFiles::hostEntryAllowed(name), name);
        }
    }
};

QTEST_GUILESS_MAIN(EtcFilesShowOnlyTheAgent)
#include "tst_etc_files_show_only_the_agent.moc"
