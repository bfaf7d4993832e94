// SPDX-License-Identifier: Apache-2.0
// An approved request widens the successor by exactly what it asked for:
// hosts appended once, sudo set, the network opened (and its host list then
// dropped), the command replaced; everything else is the parent's, and the
// two are linked by id. Nothing is ever narrowed or changed besides.
#include <QTest>

#include "policy/successor_spec.h"

using moat::EscalationRequest;
using moat::NetworkMode;
using moat::SandboxSpec;
using moat::successorSpec;

namespace {

QString mode(NetworkMode network)
{
    return QString::fromStdString(moat::toString(network));
}

SandboxSpec parentSpec()
{
    SandboxSpec spec;
    spec.sessionId = "0123456789abcdef";
    spec.name = "project-012345";
    spec.workspace = "/home/u/project";
    spec.mounts = {{"/opt/tools", true}};
    spec.environment = {{"PATH", "/usr/bin"}, {"TOKEN", "x"}};
    spec.explicitEnv = {"TOKEN"};
    spec.allowHosts = {"example.com", "*.github.com"};
    spec.ttl = moat::Duration::fromSeconds(std::chrono::seconds(1800));
    spec.localTcp = true;
    spec.command = {"make", "test"};
    return spec;
}

}  // namespace

class SuccessorSpecTest : public QObject {
    Q_OBJECT

private slots:
    void isLinkedToItsParentAndRequest()
    {
        EscalationRequest request;
        request.sudo = true;
        auto next = successorSpec(parentSpec(), request, "r-0123456789ab", "fedcba9876543210");
        QVERIFY(next);
        QCOMPARE(next->sessionId, std::string("fedcba9876543210"));
        QCOMPARE(next->parentSessionId, std::string("0123456789abcdef"));
        QCOMPARE(next->escalationRequestId, std::string("r-0123456789ab"));
        QCOMPARE(next->name, std::string("project-fedcba"));
    }

    void keepsEverythingItWasNotAskedToChange()
    {
        const SandboxSpec parent = parentSpec();
        EscalationRequest request;
        request.sudo = true;
        auto next = successorSpec(parent, request, "r-1", "fedcba9876543210");
        QVERIFY(next);
        QCOMPARE(next->workspace, parent.workspace);
        QVERIFY(next->mounts == parent.mounts);
        QVERIFY(next->environment == parent.environment);
        QVERIFY(next->explicitEnv == parent.explicitEnv);
        QVERIFY(next->allowHosts == parent.allowHosts);
        QVERIFY(next->ttl == parent.ttl);
        QCOMPARE(next->localTcp, parent.localTcp);
        QCOMPARE(mode(next->network), mode(parent.network));
        QVERIFY(next->command == parent.command);
        QCOMPARE(next->image.toString(), parent.image.toString());
        QVERIFY(next->sudo);
        QVERIFY(!next->docker);
    }

    void appendsHostsOnce()
    {
        EscalationRequest request;
        request.allowHosts = {"pypi.org", "example.com", "pypi.org", "*.pythonhosted.org"};
        auto next = successorSpec(parentSpec(), request, "r-1", "fedcba9876543210");
        QVERIFY(next);
        const std::vector<std::string> expected = {"example.com", "*.github.com", "pypi.org", "*.pythonhosted.org"};
        QVERIFY(next->allowHosts == expected);
        QCOMPARE(mode(next->network), mode(NetworkMode::Proxy));
    }

    void hostsFromNoNetworkMeanTheProxyWithThoseHosts()
    {
        SandboxSpec parent = parentSpec();
        parent.network = NetworkMode::None;
        parent.allowHosts.clear();
        EscalationRequest request;
        request.allowHosts = {"pypi.org"};
        auto next = successorSpec(parent, request, "r-1", "fedcba9876543210");
        QVERIFY(next);
        QCOMPARE(mode(next->network), mode(NetworkMode::Proxy));
        QVERIFY(next->allowHosts == std::vector<std::string>{"pypi.org"});
    }

    void openNetworkDropsTheHostList()
    {
        EscalationRequest request;
        request.netOpen = true;
        request.allowHosts = {"pypi.org"};
        auto next = successorSpec(parentSpec(), request, "r-1", "fedcba9876543210");
        QVERIFY(next);
        QCOMPARE(mode(next->network), mode(NetworkMode::Open));
        QVERIFY(next->allowHosts.empty());
    }

    void neverNarrows()
    {
        SandboxSpec parent = parentSpec();
        parent.sudo = true;
        parent.network = NetworkMode::Open;
        parent.allowHosts.clear();
        EscalationRequest request;
        request.allowHosts = {"pypi.org"};  // sudo not asked again, net not asked
        auto next = successorSpec(parent, request, "r-1", "fedcba9876543210");
        QVERIFY(next);
        QVERIFY(next->sudo);
        QCOMPARE(mode(next->network), mode(NetworkMode::Open));
    }

    void theRequestedCommandReplacesTheParents()
    {
        EscalationRequest request;
        request.sudo = true;
        request.command = {"apt-get", "install", "-y", "jq"};
        auto next = successorSpec(parentSpec(), request, "r-1", "fedcba9876543210");
        QVERIFY(next);
        QVERIFY(next->command == request.command);
    }

    void aLongNameStaysAValidName()
    {
        SandboxSpec parent = parentSpec();
        parent.name = std::string(63, 'a');
        EscalationRequest request;
        request.sudo = true;
        auto next = successorSpec(parent, request, "r-1", "fedcba9876543210");
        QVERIFY(next);
        QCOMPARE(next->name.size(), size_t(63));
        QVERIFY(next->name.ends_with("-fedcba"));
    }

    void refusesWhatCannotExist()
    {
        EscalationRequest request;
        request.docker = true;
        QVERIFY(!successorSpec(parentSpec(), request, "r-1", "fedcba9876543210"));
        request.docker = false;
        request.sudo = true;
        QVERIFY(!successorSpec(parentSpec(), request, "r-1", parentSpec().sessionId));
        QVERIFY(!successorSpec(parentSpec(), request, "r-1", ""));
    }
};

QTEST_GUILESS_MAIN(SuccessorSpecTest)
#include "tst_successor_spec.moc"
