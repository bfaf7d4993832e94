// SPDX-License-Identifier: Apache-2.0
// `moat claims` promises only what a `moat probe` check can verify, lists
// what the runtime enforces (not a copy of it), and says plainly what a
// kernel without Landlock or seccomp does not get.
#include "claims/claims_report.h"
#include "claims/default_claims.h"
#include "claims/landlock_rights.h"
#include "claims/probe_checks.h"
#include "runtime/seccomp_policy.h"

#include <QTest>

#include <linux/landlock.h>

#include <algorithm>
#include <set>

using namespace moat::claims;

namespace {

ClaimsContext contextWith(int landlockKernelAbi, bool seccomp)
{
    ClaimsContext context;
    context.kernelRelease = "6.18.0-test";
    context.landlockKernelAbi = landlockKernelAbi;
    context.seccomp = seccomp;
    context.paths.configDir = "/home/u/.config/moat";
    context.paths.stateDir = "/home/u/.local/state/moat";
    context.paths.dataDir = "/home/u/.local/share/moat";
    context.paths.runtimeDir = "/run/user/1000/moat";
    return context;
}

const Claim* findClaim(const std::vector<Claim>& claims, const std::string& id)
{
    auto found = std::find_if(claims.begin(), claims.end(), [&](const Claim& claim) { return claim.id == id; });
    return found == claims.end() ? nullptr : &*found;
}

bool hasDetail(const Claim& claim, const std::string& text)
{
    return std::any_of(claim.details.begin(), claim.details.end(),
                       [&](const std::string& detail) { return detail.find(text) != std::string::npos; });
}

QStringList toList(const std::vector<std::string>& names)
{
    QStringList list;
    for (const auto& name : names) {
        list << QString::fromStdString(name);
    }
    return list;
}

const QStringList kAbi1Rights = {"execute",  "write_file", "read_file", "read_dir",  "remove_dir",
                                 "remove_file", "make_char", "make_dir", "make_reg", "make_sock",
                                 "make_fifo", "make_block", "make_sym"};

}  // namespace

class Claims : public QObject {
    Q_OBJECT

private slots:
    void kernels_data()
    {
        QTest::addColumn<int>("landlockAbi");
        QTest::addColumn<bool>("seccomp");
        QTest::newRow("no Landlock, no seccomp") << -1 << false;
        QTest::newRow("no Landlock") << -1 << true;
        for (int abi = 1; abi <= 8; ++abi) {
            QTest::newRow(qPrintable(QString("ABI %1").arg(abi))) << abi << true;
        }
        QTest::newRow("ABI 6, no seccomp") << 6 << false;
    }

    // Claims you can't check are just marketing: each names one check from
    // the fixed list that moat probe runs inside a default sandbox.
    void kernels()
    {
        QFETCH(int, landlockAbi);
        QFETCH(bool, seccomp);
        const auto claims = defaultSandboxClaims(contextWith(landlockAbi, seccomp));
        QVERIFY(!claims.empty());

        std::set<std::string> ids;
        std::vector<std::string> areasSeen;
        for (const auto& claim : claims) {
            QVERIFY2(isVerifyingCheck(claim.check), qPrintable(QString::fromStdString(claim.id + " names " + claim.check)));
            QVERIFY2(ids.insert(claim.id).second, qPrintable(QString::fromStdString("duplicate id " + claim.id)));
            QVERIFY2(claim.id.starts_with(claim.area + "."), qPrintable(QString::fromStdString(claim.id)));
            QVERIFY(!claim.text.empty());
            if (areasSeen.empty() || areasSeen.back() != claim.area) {
                // Each area's claims are together, so the text report groups them.
                QVERIFY2(std::find(areasSeen.begin(), areasSeen.end(), claim.area) == areasSeen.end(),
                         qPrintable(QString::fromStdString("area split: " + claim.area)));
                areasSeen.push_back(claim.area);
            }
        }
        const std::vector<std::string> areas = {"namespaces", "privileges", "seccomp", "landlock", "filesystem",
                                                "network",    "secrets",    "records", "host"};
        QCOMPARE(areasSeen, areas);
    }

    // On a kernel with every layer, every check of the list verifies a claim.
    void everyCheckVerifiesAClaim()
    {
        const auto claims = defaultSandboxClaims(contextWith(7, true));
        for (std::string_view check : kVerifyingChecks) {
            QVERIFY2(std::any_of(claims.begin(), claims.end(), [&](const Claim& claim) { return claim.check == check; }),
                     qPrintable(QString::fromUtf8(check.data(), int(check.size()))));
        }
    }

    void seccompClaimListsEveryDenial()
    {
        const auto claims = defaultSandboxClaims(contextWith(6, true));
        const Claim* denied = findClaim(claims, "seccomp.deny_list");
        QVERIFY(denied);
        QCOMPARE(denied->check, std::string("seccomp_filter_denies"));
        QCOMPARE(denied->details.size(), moat::SeccompPolicy::denyList().size());
        for (size_t i = 0; i < denied->details.size(); ++i) {
            const auto& denial = moat::SeccompPolicy::denyList()[i];
            QVERIFY2(denied->details[i].starts_with(denial.syscall + ": " + denial.reason),
                     qPrintable(QString::fromStdString(denied->details[i])));
        }
        // Not a system call on x86-64: said so, not silently claimed.
        QVERIFY(hasDetail(*denied, "vm86: 32-bit virtual 8086 mode (no such system call on this architecture)") ||
                !hasDetail(*denied, "vm86:"));
        QVERIFY(!hasDetail(*denied, "mount: no new mounts: the file system view is fixed before the command "
                                    "starts (no such"));

        const Claim* byArgument = findClaim(claims, "seccomp.argument_denials");
        QVERIFY(byArgument);
        QCOMPARE(byArgument->details.size(), moat::SeccompPolicy::argumentDenials().size());
        for (const auto& denial : moat::SeccompPolicy::argumentDenials()) {
            QVERIFY(hasDetail(*byArgument, denial.syscall + ": " + denial.reason));
        }
    }

    void withoutSeccompTheClaimSaysSo()
    {
        const auto claims = defaultSandboxClaims(contextWith(6, false));
        const Claim* filter = findClaim(claims, "seccomp.filter");
        QVERIFY(filter);
        QVERIFY(filter->text.find("--allow-degraded=seccomp") != std::string::npos);
        QVERIFY(!findClaim(claims, "seccomp.deny_list"));
    }

    void landlockRightsPerAbi_data()
    {
        QTest::addColumn<int>("abi");
        QTest::addColumn<QStringList>("fs");
        QTest::addColumn<QStringList>("net");
        QTest::addColumn<QStringList>("scopes");
        const QStringList tcp = {"bind_tcp", "connect_tcp"};
        const QStringList scopes = {"abstract_unix_socket", "signal"};
        QTest::newRow("ABI 1") << 1 << kAbi1Rights << QStringList() << QStringList();
        QTest::newRow("ABI 2") << 2 << (kAbi1Rights + QStringList{"refer"}) << QStringList() << QStringList();
        QTest::newRow("ABI 3") << 3 << (kAbi1Rights + QStringList{"refer", "truncate"}) << QStringList()
                               << QStringList();
        QTest::newRow("ABI 4") << 4 << (kAbi1Rights + QStringList{"refer", "truncate"}) << tcp << QStringList();
        QTest::newRow("ABI 5") << 5 << (kAbi1Rights + QStringList{"refer", "truncate", "ioctl_dev"}) << tcp
                               << QStringList();
        QTest::newRow("ABI 6") << 6 << (kAbi1Rights + QStringList{"refer", "truncate", "ioctl_dev"}) << tcp << scopes;
    }

    void landlockRightsPerAbi()
    {
        QFETCH(int, abi);
        QFETCH(QStringList, fs);
        QFETCH(QStringList, net);
        QFETCH(QStringList, scopes);
        const LandlockRights rights = defaultSandboxRights(abi);
        QCOMPARE(rights.abi, abi);
        QCOMPARE(toList(rights.fs), fs);
        QCOMPARE(toList(rights.net), net);
        QCOMPARE(toList(rights.scopes), scopes);

        // The claim shows the same list, and the TCP and scope claims exist
        // exactly when the ABI has them.
        const auto claims = defaultSandboxClaims(contextWith(abi, true));
        const Claim* filesystem = findClaim(claims, "landlock.filesystem");
        QVERIFY(filesystem);
        QVERIFY(hasDetail(*filesystem, "handled: execute, write_file, "));
        QCOMPARE(bool(findClaim(claims, "landlock.tcp")), !net.isEmpty());
        QCOMPARE(bool(findClaim(claims, "landlock.scope")), !scopes.isEmpty());
        QVERIFY(findClaim(claims, "landlock.abi")->text.starts_with("Landlock ABI " + std::to_string(abi) + " is in use"));
    }

    // The names follow the kernel's header, bit for bit.
    void rightNamesMatchTheKernelHeader()
    {
        QCOMPARE(toList(fsRightNames(LANDLOCK_ACCESS_FS_EXECUTE)), QStringList{"execute"});
        QCOMPARE(toList(fsRightNames(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)),
                 (QStringList{"read_file", "read_dir"}));
        QCOMPARE(toList(fsRightNames(LANDLOCK_ACCESS_FS_MAKE_BLOCK)), QStringList{"make_block"});
        QCOMPARE(toList(fsRightNames(LANDLOCK_ACCESS_FS_MAKE_SYM)), QStringList{"make_sym"});
#ifdef LANDLOCK_ACCESS_FS_REFER
        QCOMPARE(toList(fsRightNames(LANDLOCK_ACCESS_FS_REFER)), QStringList{"refer"});
#endif
        // A right moat would handle without a name here is shown, not hidden.
        QCOMPARE(toList(fsRightNames(1ULL << 20)), QStringList{"bit 20"});
    }

    void abiInUseIsCapped()
    {
        QCOMPARE(abiInUse(-1), -1);
        QCOMPARE(abiInUse(0), -1);
        QCOMPARE(abiInUse(1), 1);
        QCOMPARE(abiInUse(6), 6);
        QCOMPARE(abiInUse(7), kHighestHandledAbi);
        QCOMPARE(abiInUse(42), kHighestHandledAbi);
    }

    void withoutLandlockTheClaimSaysSo()
    {
        const auto claims = defaultSandboxClaims(contextWith(-1, true));
        const Claim* abi = findClaim(claims, "landlock.abi");
        QVERIFY(abi);
        QVERIFY(abi->text.find("has no Landlock") != std::string::npos);
        QVERIFY(abi->text.find("--allow-degraded=landlock") != std::string::npos);
        QVERIFY(!findClaim(claims, "landlock.filesystem"));
        QVERIFY(!findClaim(claims, "landlock.tcp"));
    }

    void olderAbiNamesWhatItLacks()
    {
        const auto claims = defaultSandboxClaims(contextWith(3, true));
        const Claim* abi = findClaim(claims, "landlock.abi");
        QVERIFY(hasDetail(*abi, "TCP bind and connect (ABI 4)"));
        QVERIFY(hasDetail(*abi, "abstract unix socket and signal scoping (ABI 6)"));
        QVERIFY(!hasDetail(*abi, "truncation"));
        QVERIFY(findClaim(defaultSandboxClaims(contextWith(7, true)), "landlock.abi")->details.empty());
    }

    // The lists are asked of the runtime: what it refuses shows as refused.
    void etcAndEnvironmentKeepSecretsOut()
    {
        const auto claims = defaultSandboxClaims(contextWith(6, true));
        const Claim* etc = findClaim(claims, "filesystem.etc");
        QVERIFY(etc);
        for (const char* name : {"shadow", "gshadow", "sudoers", "ssh", "machine-id", "subuid"}) {
            QVERIFY2(hasDetail(*etc, name), name);
        }
        QVERIFY(hasDetail(*etc, "written by moat: passwd, group, hosts"));
        const Claim* environment = findClaim(claims, "secrets.environment");
        QVERIFY(environment);
        QVERIFY(hasDetail(*environment, "passed from the caller: PATH, TERM, LANG, LC_ALL, TZ and COLORTERM"));
        QVERIFY(hasDetail(*environment, "AWS_SECRET_ACCESS_KEY"));
        QVERIFY(hasDetail(*environment, "SSH_AUTH_SOCK"));
    }

    void egressEvidenceIsRefusals()
    {
        const auto claims = defaultSandboxClaims(contextWith(6, true));
        for (const char* id : {"network.proxy_unlisted", "network.proxy_raw_ip", "network.proxy_metadata"}) {
            const Claim* claim = findClaim(claims, id);
            QVERIFY2(claim, id);
            QVERIFY2(!hasDetail(*claim, "ALLOWED"), id);
            QVERIFY2(hasDetail(*claim, "refused ("), id);
        }
        QVERIFY(hasDetail(*findClaim(claims, "network.proxy_metadata"), "169.254.169.254, with --allow-host"));
        QVERIFY(hasDetail(*findClaim(claims, "network.proxy_unlisted"), "HTTPS_PROXY=http://127.0.0.1:3128"));
        QVERIFY(findClaim(claims, "network.proxy_unlisted")->text.find("127.0.0.1:1080") != std::string::npos);
    }

    void recordsAreWhereMoatKeepsThem()
    {
        const auto claims = defaultSandboxClaims(contextWith(6, true));
        QVERIFY(hasDetail(*findClaim(claims, "records.sessions"), "on the host: /home/u/.local/state/moat/sessions"));
        QVERIFY(hasDetail(*findClaim(claims, "records.checkpoints"), "on the host: /home/u/.local/share/moat"));
        QVERIFY(hasDetail(*findClaim(claims, "filesystem.home"), "/home/u/.local/state/moat/homes/default"));
    }

    // The JSON keys and their order are a contract (docs/claims.md).
    void jsonShapeIsStable()
    {
        const auto context = contextWith(7, true);
        const auto report = claimsReport("1.2.3", context, defaultSandboxClaims(context));
        std::vector<std::string> keys;
        for (const auto& item : report.items()) {
            keys.push_back(item.key());
        }
        QCOMPARE(keys, (std::vector<std::string>{"moat_version", "sandbox", "kernel", "claims"}));
        QCOMPARE(report["moat_version"].get<std::string>(), std::string("1.2.3"));
        QCOMPARE(report["sandbox"].get<std::string>(), std::string("default"));
        QCOMPARE(report["kernel"].dump(),
                 std::string(R"({"release":"6.18.0-test","landlock_abi":6,"landlock_kernel_abi":7,"seccomp":true})"));
        QVERIFY(report["claims"].is_array() && !report["claims"].empty());
        for (const auto& claim : report["claims"]) {
            std::vector<std::string> claimKeys;
            for (const auto& item : claim.items()) {
                claimKeys.push_back(item.key());
            }
            QCOMPARE(claimKeys, (std::vector<std::string>{"id", "area", "claim", "check", "details"}));
            QVERIFY(claim["details"].is_array());
        }

        const auto without = contextWith(-1, false);
        const auto bare = claimsReport("1.2.3", without, defaultSandboxClaims(without));
        QCOMPARE(bare["kernel"].dump(),
                 std::string(R"({"release":"6.18.0-test","landlock_abi":null,"landlock_kernel_abi":null,"seccomp":false})"));
    }

    // This machine: read without changing anything, and a complete report.
    void currentMachine()
    {
        const auto context = ClaimsContext::current();
        QVERIFY(!context.kernelRelease.empty());
        QVERIFY(!context.paths.stateDir.empty());
        QVERIFY(defaultSandboxClaims(context).size() > 30);
    }
};

QTEST_GUILESS_MAIN(Claims)
#include "tst_claims.moc"
