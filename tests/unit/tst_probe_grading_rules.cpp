// SPDX-License-Identifier: Apache-2.0
// The grading rules of docs/probe.md on synthetic check results: each rule's
// boundaries, one check changed at a time from a machine that earns A
// everywhere, and a check that is missing never earns a better grade.
#include "probe/grades.h"

#include <QTest>

using moat::probe::Check;
using moat::probe::Checks;
using moat::probe::Target;

namespace {

Checks idealMachine()
{
    Checks checks;
    for (const char* name : {"hypervisor", "container_markers", "lsm_list", "seccomp_available", "userns_procfs",
                             "cap_eff_zero", "cap_prm_zero", "cap_bnd_zero", "cap_amb_zero", "no_new_privs",
                             "sudo_reachable", "sudo_nopasswd", "root_equivalent_groups", "admin_groups",
                             "container_sockets", "world_writable_sockets", "platform_tokens", "metadata_route", "default_route",
                             "public_route", "dns_direct", "credential_env_names", "credential_files",
                             "records_reachable", "checkpoints_reachable", "inner_sandbox_layers",
                             // inside a sandbox only
                             "procfs_private", "landlock_enforced", "seccomp_mode", "seccomp_filter_denies",
                             "mount_view", "proxy_refuses_unlisted", "proxy_refuses_raw_ip", "proxy_refuses_metadata",
                             "dns_stub_refuses", "keychain_unreachable", "real_home_reachable"}) {
        checks.push_back({name, true, "synthetic", 0});
    }
    checks.push_back({"sandbox_namespaces", true, "own: user, mnt, pid, ...", 1});
    checks.push_back({"landlock_abi", true, "Landlock ABI 6", 6});
    return checks;
}

Check& find(Checks& checks, const QString& name)
{
    for (auto& check : checks) {
        if (check.name == name.toStdString()) {
            return check;
        }
    }
    qFatal("no check %s", qPrintable(name));
}

// "name=ok/value" changes, e.g. "public_route=0" or "landlock_abi=1/5".
Checks with(const QStringList& changes)
{
    Checks checks = idealMachine();
    for (const auto& change : changes) {
        const auto parts = change.split('=');
        const auto okAndValue = parts[1].split('/');
        Check& check = find(checks, parts[0]);
        check.ok = okAndValue[0] == "1";
        if (okAndValue.size() > 1) {
            check.value = okAndValue[1].toLong();
        }
    }
    return checks;
}

char gradeOf(const Checks& checks, int id, Target target = Target::Host)
{
    return moat::probe::gradeCriteria(checks, target).at(static_cast<size_t>(id - 1)).grade;
}

}  // namespace

class ProbeGradingRules : public QObject {
    Q_OBJECT

private slots:
    void sevenCriteriaInOrderWithEvidence()
    {
        const auto criteria = moat::probe::gradeCriteria(idealMachine(), Target::Host);
        QCOMPARE(criteria.size(), size_t(7));
        for (size_t i = 0; i < criteria.size(); ++i) {
            QCOMPARE(criteria[i].id, int(i + 1));
            QVERIFY(!criteria[i].name.empty());
            QVERIFY(!criteria[i].evidence.empty());
        }
    }

    void gradesPerRuleBoundary_data()
    {
        QTest::addColumn<QStringList>("changes");
        QTest::addColumn<int>("criterion");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("grade");

        // 1: never A from the probe; the host is the boundary.
        QTest::newRow("1 host in a VM") << QStringList{} << 1 << "host" << "B";
        QTest::newRow("1 host on bare metal") << QStringList{"hypervisor=0"} << 1 << "host" << "D";
        QTest::newRow("1 host in a container") << QStringList{"container_markers=0", "hypervisor=0"} << 1 << "host" << "C";
        QTest::newRow("1 host in a container in a VM") << QStringList{"container_markers=0"} << 1 << "host" << "B";
        QTest::newRow("1 sandbox, shared kernel") << QStringList{"hypervisor=0"} << 1 << "sandbox" << "C";
        QTest::newRow("1 sandbox in a VM") << QStringList{} << 1 << "sandbox" << "B";
        QTest::newRow("1 sandbox sharing the network namespace")
            << QStringList{"hypervisor=0", "sandbox_namespaces=0/1"} << 1 << "sandbox" << "C";
        QTest::newRow("1 not in its own user, mount and pid namespaces")
            << QStringList{"sandbox_namespaces=0/0"} << 1 << "sandbox" << "D";
        // 2: Landlock ABI 6, seccomp, userns + procfs.
        QTest::newRow("2 all, ABI 6") << QStringList{} << 2 << "host" << "A";
        QTest::newRow("2 ABI 5") << QStringList{"landlock_abi=0/5"} << 2 << "host" << "B";
        QTest::newRow("2 ABI 1") << QStringList{"landlock_abi=0/1"} << 2 << "host" << "B";
        QTest::newRow("2 no Landlock") << QStringList{"landlock_abi=0/0"} << 2 << "host" << "C";
        QTest::newRow("2 no userns") << QStringList{"userns_procfs=0"} << 2 << "host" << "C";
        QTest::newRow("2 no Landlock, no userns") << QStringList{"landlock_abi=0/0", "userns_procfs=0"} << 2 << "host"
                                                  << "D";
        QTest::newRow("2 no seccomp") << QStringList{"seccomp_available=0"} << 2 << "host" << "D";
        QTest::newRow("2 lsm list unreadable") << QStringList{"lsm_list=0"} << 2 << "host" << "A";
        QTest::newRow("2 no layers of a program's own") << QStringList{"inner_sandbox_layers=0"} << 2 << "host" << "B";
        QTest::newRow("2 sandbox-only checks do not count on the host")
            << QStringList{"landlock_enforced=0", "sandbox_namespaces=0/0"} << 2 << "host" << "A";
        // 2 inside: the sandbox's own layers, observed; nested namespaces are evidence.
        QTest::newRow("2 sandbox, all") << QStringList{} << 2 << "sandbox" << "A";
        QTest::newRow("2 sandbox, no nested userns") << QStringList{"userns_procfs=0"} << 2 << "sandbox" << "A";
        QTest::newRow("2 sandbox, ABI 5") << QStringList{"landlock_abi=0/5"} << 2 << "sandbox" << "B";
        QTest::newRow("2 sandbox, no layers of its own") << QStringList{"inner_sandbox_layers=0"} << 2 << "sandbox"
                                                         << "B";
        QTest::newRow("2 sandbox, Landlock not enforced") << QStringList{"landlock_enforced=0"} << 2 << "sandbox" << "C";
        QTest::newRow("2 sandbox, no filter loaded") << QStringList{"seccomp_mode=0"} << 2 << "sandbox" << "C";
        QTest::newRow("2 sandbox, denials not answered") << QStringList{"seccomp_filter_denies=0"} << 2 << "sandbox"
                                                         << "C";
        QTest::newRow("2 sandbox, host's procfs") << QStringList{"procfs_private=0"} << 2 << "sandbox" << "C";
        // 3: one command from root is D.
        QTest::newRow("3 nothing") << QStringList{} << 3 << "host" << "A";
        QTest::newRow("3 CapEff") << QStringList{"cap_eff_zero=0"} << 3 << "host" << "D";
        QTest::newRow("3 NOPASSWD") << QStringList{"sudo_nopasswd=0"} << 3 << "host" << "D";
        QTest::newRow("3 docker group") << QStringList{"root_equivalent_groups=0"} << 3 << "host" << "D";
        QTest::newRow("3 docker socket") << QStringList{"container_sockets=0"} << 3 << "host" << "D";
        QTest::newRow("3 CapPrm") << QStringList{"cap_prm_zero=0"} << 3 << "host" << "C";
        QTest::newRow("3 CapAmb") << QStringList{"cap_amb_zero=0"} << 3 << "host" << "C";
        QTest::newRow("3 wheel") << QStringList{"admin_groups=0"} << 3 << "host" << "C";
        QTest::newRow("3 NoNewPrivs 0") << QStringList{"no_new_privs=0"} << 3 << "host" << "B";
        QTest::newRow("3 CapBnd") << QStringList{"cap_bnd_zero=0"} << 3 << "host" << "B";
        QTest::newRow("3 setuid sudo") << QStringList{"sudo_reachable=0"} << 3 << "host" << "B";
        // 4: control plane.
        QTest::newRow("4 nothing") << QStringList{} << 4 << "host" << "A";
        QTest::newRow("4 platform token") << QStringList{"platform_tokens=0", "metadata_route=0"} << 4 << "host" << "D";
        QTest::newRow("4 platform socket") << QStringList{"container_sockets=0"} << 4 << "host" << "C";
        QTest::newRow("4 world-writable sockets, evidence only") << QStringList{"world_writable_sockets=0"} << 4 << "host"
                                                                << "A";
        QTest::newRow("4 metadata routable") << QStringList{"metadata_route=0"} << 4 << "host" << "B";
        QTest::newRow("4 sandbox, metadata through the proxy") << QStringList{"proxy_refuses_metadata=0/0"} << 4
                                                               << "sandbox" << "B";
        QTest::newRow("4 sandbox, no proxy to ask") << QStringList{"proxy_refuses_metadata=0/-1"} << 4 << "sandbox"
                                                    << "A";
        // 5: egress.
        QTest::newRow("5 no route out") << QStringList{} << 5 << "host" << "A";
        QTest::newRow("5 raw IPs routed") << QStringList{"public_route=0", "dns_direct=0"} << 5 << "host" << "D";
        QTest::newRow("5 direct DNS") << QStringList{"dns_direct=0", "default_route=0"} << 5 << "host" << "C";
        QTest::newRow("5 default route only") << QStringList{"default_route=0"} << 5 << "host" << "B";
        QTest::newRow("5 sandbox, what --allow-host lets through is evidence")
            << QStringList{"proxy_refuses_unlisted=0", "proxy_refuses_raw_ip=0", "dns_stub_refuses=0"} << 5
            << "sandbox" << "A";
        // 6: secrets.
        QTest::newRow("6 nothing") << QStringList{} << 6 << "host" << "A";
        QTest::newRow("6 credential names") << QStringList{"credential_env_names=0"} << 6 << "host" << "D";
        QTest::newRow("6 readable files") << QStringList{"credential_files=0/1"} << 6 << "host" << "C";
        QTest::newRow("6 unreadable files") << QStringList{"credential_files=1/2"} << 6 << "host" << "B";
        QTest::newRow("6 sandbox, real home reachable") << QStringList{"real_home_reachable=0/1"} << 6 << "sandbox"
                                                        << "C";
        QTest::newRow("6 sandbox, keychain reachable") << QStringList{"keychain_unreachable=0"} << 6 << "sandbox"
                                                       << "C";
        QTest::newRow("6 host, sandbox-only checks do not count") << QStringList{"keychain_unreachable=0"} << 6 << "host"
                                                                  << "A";
        // 7: records and checkpoints.
        QTest::newRow("7 out of reach") << QStringList{} << 7 << "host" << "A";
        QTest::newRow("7 records writable") << QStringList{"records_reachable=0/2"} << 7 << "host" << "D";
        QTest::newRow("7 records readable") << QStringList{"records_reachable=0/1"} << 7 << "host" << "C";
        QTest::newRow("7 checkpoints reachable") << QStringList{"checkpoints_reachable=0/2"} << 7 << "host" << "B";
    }

    void gradesPerRuleBoundary()
    {
        QFETCH(QStringList, changes);
        QFETCH(int, criterion);
        QFETCH(QString, target);
        QFETCH(QString, grade);

        const char got = gradeOf(with(changes), criterion, target == "host" ? Target::Host : Target::Sandbox);
        QCOMPARE(QString(QChar(got)), grade);
    }

    void aMissingCheckCountsAsNotOk()
    {
        Checks checks = idealMachine();
        std::erase_if(checks, [](const Check& check) { return check.name == "public_route"; });
        QCOMPARE(gradeOf(checks, 5), 'D');
        const auto criteria = moat::probe::gradeCriteria(checks, Target::Host);
        QCOMPARE(QString::fromStdString(criteria[4].evidence.front()), QString("public_route: not checked"));
    }
};

QTEST_GUILESS_MAIN(ProbeGradingRules)
#include "tst_probe_grading_rules.moc"
