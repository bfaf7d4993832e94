// SPDX-License-Identifier: Apache-2.0
// What sandbox init is told per network mode: under --net proxy the egress
// listeners, Landlock's TCP ports for them and the proxy variables, which the
// spec cannot redirect; under --net none and open none of these.
#include "policy/egress_endpoints.h"
#include "runtime/init_plan.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

using moat::NetworkMode;
using moat::SandboxSpec;

using Environment = std::map<std::string, std::string>;

Q_DECLARE_METATYPE(NetworkMode)

namespace {

const Environment kProxyEnvironment = {
    {"HTTP_PROXY", "http://127.0.0.1:3128"},   {"http_proxy", "http://127.0.0.1:3128"},
    {"HTTPS_PROXY", "http://127.0.0.1:3128"},  {"https_proxy", "http://127.0.0.1:3128"},
    {"ALL_PROXY", "socks5h://127.0.0.1:1080"}, {"all_proxy", "socks5h://127.0.0.1:1080"},
    {"NO_PROXY", "localhost,127.0.0.1"},       {"no_proxy", "localhost,127.0.0.1"},
    {"MOAT_API", "http://127.0.0.1:3128"},
};

Environment asMap(const std::vector<std::string>& environment)
{
    Environment out;
    for (const auto& item : environment) {
        const auto eq = item.find('=');
        out[item.substr(0, eq)] = eq == std::string::npos ? std::string("<no '='>") : item.substr(eq + 1);
    }
    return out;
}

}  // namespace

class InitPlanPerNetworkMode : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

    moat::Result<moat::InitPlan> plan(const SandboxSpec& spec) const
    {
        const moat::MoatPaths paths{(tmp_.path() + "/config").toStdString(), (tmp_.path() + "/state").toStdString(),
                                    (tmp_.path() + "/data").toStdString(), (tmp_.path() + "/run").toStdString()};
        moat::AgentIdentity id;
        id.hostUid = id.insideUid = 1000;
        id.hostGid = id.insideGid = 1000;
        id.name = "agent";
        id.home = "/home/agent";
        moat::KernelSupport kernel;
        kernel.landlockAbi = 6;
        kernel.seccomp = true;
        return moat::planSandboxInit(spec, paths, id, kernel, moat::StdioMode{});
    }

    SandboxSpec spec(NetworkMode network) const
    {
        SandboxSpec spec;
        spec.sessionId = "0123456789abcdef";
        spec.workspace = tmp_.path().toStdString();
        spec.network = network;
        spec.environment = {{"PATH", "/usr/bin:/bin"}, {"LANG", "C.UTF-8"}};
        spec.command = {"true"};
        return spec;
    }

private slots:
    void initTestCase() { QVERIFY(tmp_.isValid()); }

    void proxyModeHandsOutListenersAndPointsTheCommandAtThem()
    {
        const auto planned = plan(spec(NetworkMode::Proxy));
        QVERIFY2(planned.ok(), planned.ok() ? "" : planned.error().message().c_str());
        const moat::InitConfig& config = planned->config;
        QVERIFY(config.newNetwork);
        QVERIFY(config.egressListeners);
        QVERIFY(config.landlock.restrictTcp);
        // TCP to moat's own listeners, and nothing else.
        QCOMPARE(config.landlock.tcpConnectPorts, (std::vector<uint16_t>{53, 3128, 1080}));
        const Environment env = asMap(config.environment);
        for (const auto& [name, value] : kProxyEnvironment) {
            QVERIFY2(env.contains(name), name.c_str());
            QCOMPARE(env.at(name), value);
        }
        QCOMPARE(env.at("PATH"), std::string("/usr/bin:/bin"));
        QCOMPARE(env.at("MOAT_SESSION"), std::string("0123456789abcdef"));
    }

    void constantsAreTheDocumentedOnes()
    {
        QCOMPARE(moat::kDnsPort, uint16_t(53));
        QCOMPARE(moat::kProxyHttpPort, uint16_t(3128));
        QCOMPARE(moat::kProxySocksPort, uint16_t(1080));
        QCOMPARE(QString(moat::kProxyHttpListener), QStringLiteral("proxy-http"));
        QCOMPARE(QString(moat::kProxySocksListener), QStringLiteral("proxy-socks"));
        QCOMPARE(QString(moat::kDnsUdpListener), QStringLiteral("dns-udp"));
        QCOMPARE(QString(moat::kDnsTcpListener), QStringLiteral("dns-tcp"));
    }

    // A spec that reaches the supervisor with its own proxy variables (not
    // from the CLI, which refuses them) still cannot point the command away
    // from moat's proxy, in any spelling.
    void specCannotRedirectTheProxy()
    {
        SandboxSpec proxied = spec(NetworkMode::Proxy);
        proxied.environment["HTTPS_PROXY"] = "http://attacker.example:8080";
        proxied.environment["Https_Proxy"] = "http://attacker.example:8080";
        proxied.environment["no_proxy"] = "*";
        proxied.environment["MOAT_API"] = "http://attacker.example/";
        const auto planned = plan(proxied);
        QVERIFY(planned.ok());
        const Environment env = asMap(planned->config.environment);
        QVERIFY(!env.contains("Https_Proxy"));
        for (const auto& [name, value] : kProxyEnvironment) {
            QCOMPARE(env.at(name), value);
        }
    }

    void withoutTheProxyNothingPointsAtIt_data()
    {
        QTest::addColumn<NetworkMode>("network");
        QTest::addColumn<bool>("newNetwork");
        QTest::addColumn<bool>("restrictTcp");

        QTest::newRow("none") << NetworkMode::None << true << true;
        QTest::newRow("open") << NetworkMode::Open << false << false;
    }

    void withoutTheProxyNothingPointsAtIt()
    {
        QFETCH(NetworkMode, network);
        QFETCH(bool, newNetwork);
        QFETCH(bool, restrictTcp);

        SandboxSpec unproxied = spec(network);
        // The user's own proxy, passed on purpose, is theirs; MOAT_API is not.
        unproxied.environment["HTTPS_PROXY"] = "http://corp.example:3128";
        unproxied.environment["MOAT_API"] = "http://127.0.0.1:3128";
        const auto planned = plan(unproxied);
        QVERIFY(planned.ok());
        const moat::InitConfig& config = planned->config;
        QCOMPARE(config.newNetwork, newNetwork);
        QVERIFY(!config.egressListeners);
        QCOMPARE(config.landlock.restrictTcp, restrictTcp);
        QVERIFY(config.landlock.tcpConnectPorts.empty());
        const Environment env = asMap(config.environment);
        QCOMPARE(env.at("HTTPS_PROXY"), std::string("http://corp.example:3128"));
        for (const char* name : {"HTTP_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY",
                                 "no_proxy", "MOAT_API"}) {
            QVERIFY2(!env.contains(name), name);
        }
    }

    void localTcpLiftsTheTcpRestriction()
    {
        SandboxSpec local = spec(NetworkMode::Proxy);
        local.localTcp = true;
        const auto planned = plan(local);
        QVERIFY(planned.ok());
        QVERIFY(!planned->config.landlock.restrictTcp);
        QVERIFY(planned->config.egressListeners);
    }
};

QTEST_GUILESS_MAIN(InitPlanPerNetworkMode)
#include "tst_init_plan_per_network_mode.moc"
