// SPDX-License-Identifier: Apache-2.0
// The user's policy.toml decides which escalation requests pass on their
// own, which need a person and which are refused. A request is as strict as
// its strictest part, host patterns auto-approve only what they cover, and a
// file that does not parse refuses everything rather than guessing.
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "policy/escalation_policy.h"

using moat::EscalationPolicy;
using moat::EscalationRequest;
using moat::Grant;

Q_DECLARE_METATYPE(Grant)

namespace {

QString name(Grant grant)
{
    return QString::fromStdString(moat::toString(grant));
}

EscalationRequest hosts(std::vector<std::string> list)
{
    EscalationRequest request;
    request.allowHosts = std::move(list);
    return request;
}

EscalationPolicy parsed(const char* text)
{
    auto policy = EscalationPolicy::parse(text);
    if (!policy) {
        qFatal("policy does not parse: %s", policy.error().message().c_str());
    }
    return policy.value();
}

const char* kPypiAuto = R"(
timeout = "30s"
sudo = "ask"
net_open = "deny"
[allow_host]
default = "ask"
auto = ["*.pypi.org", "registry.npmjs.org", "*.cdn.example.net"]
deny = ["*.corp.example"]
)";

}  // namespace

class EscalationPolicyTest : public QObject {
    Q_OBJECT

private slots:
    void shippedDefaultsAskForEverythingButOpenNetwork()
    {
        const EscalationPolicy policy = EscalationPolicy::defaults();
        QCOMPARE(name(policy.decide(hosts({"example.com"})).grant), name(Grant::Ask));
        EscalationRequest sudo;
        sudo.sudo = true;
        QCOMPARE(name(policy.decide(sudo).grant), name(Grant::Ask));
        EscalationRequest docker;
        docker.docker = true;
        QCOMPARE(name(policy.decide(docker).grant), name(Grant::Ask));
        EscalationRequest open;
        open.netOpen = true;
        QCOMPARE(name(policy.decide(open).grant), name(Grant::Deny));
        QCOMPARE(policy.timeout.seconds().count(), 120);
    }

    void noFileMeansTheDefaults()
    {
        QTemporaryDir dir;
        const EscalationPolicy policy = EscalationPolicy::load(dir.path().toStdString());
        QVERIFY(policy.brokenBecause.empty());
        QCOMPARE(name(policy.decide(hosts({"example.com"})).grant), name(Grant::Ask));
    }

    void hostsAreDecidedByPattern_data()
    {
        QTest::addColumn<QStringList>("requested");
        QTest::addColumn<Grant>("expected");

        QTest::newRow("a subdomain of an auto wildcard") << QStringList{"files.pypi.org"} << Grant::Auto;
        QTest::newRow("an exact auto host") << QStringList{"registry.npmjs.org"} << Grant::Auto;
        QTest::newRow("the auto host on 443 only") << QStringList{"registry.npmjs.org:443"} << Grant::Auto;
        QTest::newRow("the auto host on another port") << QStringList{"registry.npmjs.org:8443"} << Grant::Ask;
        QTest::newRow("a narrower wildcard") << QStringList{"*.files.pypi.org"} << Grant::Auto;
        QTest::newRow("the wildcard's own suffix is not inside it") << QStringList{"pypi.org"} << Grant::Ask;
        QTest::newRow("a wider wildcard") << QStringList{"*.example.net"} << Grant::Ask;
        QTest::newRow("a look-alike") << QStringList{"pypi.org.evil.example"} << Grant::Ask;
        QTest::newRow("a look-alike suffix") << QStringList{"evilpypi.org"} << Grant::Ask;
        QTest::newRow("one host of two is not covered") << QStringList{"files.pypi.org", "example.com"} << Grant::Ask;
        QTest::newRow("a denied host") << QStringList{"git.corp.example"} << Grant::Deny;
        QTest::newRow("a wildcard over a denied host") << QStringList{"*.example"} << Grant::Deny;
        QTest::newRow("a denied host beside an auto one")
            << QStringList{"files.pypi.org", "git.corp.example"} << Grant::Deny;
        QTest::newRow("an address") << QStringList{"203.0.113.7"} << Grant::Ask;
    }

    void hostsAreDecidedByPattern()
    {
        QFETCH(QStringList, requested);
        QFETCH(Grant, expected);
        std::vector<std::string> list;
        for (const QString& host : requested) {
            list.push_back(host.toStdString());
        }
        const auto verdict = parsed(kPypiAuto).decide(hosts(list));
        QCOMPARE(name(verdict.grant), name(expected));
        if (expected != Grant::Ask) {
            QVERIFY(!verdict.reason.empty());
        }
    }

    void theStrictestPartDecides_data()
    {
        QTest::addColumn<bool>("sudo");
        QTest::addColumn<bool>("netOpen");
        QTest::addColumn<QString>("host");
        QTest::addColumn<Grant>("expected");

        QTest::newRow("auto host alone") << false << false << "files.pypi.org" << Grant::Auto;
        QTest::newRow("auto host and sudo (ask)") << true << false << "files.pypi.org" << Grant::Ask;
        QTest::newRow("auto host and net open (deny)") << false << true << "files.pypi.org" << Grant::Deny;
        QTest::newRow("sudo (ask) and net open (deny)") << true << true << "" << Grant::Deny;
    }

    void theStrictestPartDecides()
    {
        QFETCH(bool, sudo);
        QFETCH(bool, netOpen);
        QFETCH(QString, host);
        QFETCH(Grant, expected);
        EscalationRequest request;
        request.sudo = sudo;
        request.netOpen = netOpen;
        if (!host.isEmpty()) {
            request.allowHosts.push_back(host.toStdString());
        }
        QCOMPARE(name(parsed(kPypiAuto).decide(request).grant), name(expected));
    }

    void everyFlagCanBeAuto()
    {
        const EscalationPolicy policy = parsed(
            "sudo = \"auto\"\ndocker = \"auto\"\nnet-open = \"auto\"\n"
            "[allow-host]\ndefault = \"auto\"\n");
        EscalationRequest request;
        request.sudo = request.docker = request.netOpen = true;
        request.allowHosts = {"example.com"};
        QCOMPARE(name(policy.decide(request).grant), name(Grant::Auto));
    }

    void anEmptyRequestIsRefused()
    {
        QCOMPARE(name(parsed("[allow_host]\ndefault = \"auto\"\n").decide(EscalationRequest{}).grant),
                 name(Grant::Deny));
    }

    void theTimeoutIsRead() { QCOMPARE(parsed(kPypiAuto).timeout.seconds().count(), 30); }

    void malformedFilesAreRefusedWithTheLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");

        QTest::newRow("not TOML") << "sudo = ask\n"
                                  << "policy.toml:1";
        QTest::newRow("unknown grant") << "\n\nsudo = \"maybe\"\n"
                                       << "policy.toml:3";
        QTest::newRow("unknown key (a typo must not be ignored)") << "sduo = \"auto\"\n"
                                                                  << "sduo";
        QTest::newRow("unknown allow_host key") << "[allow_host]\nautos = []\n"
                                                << "autos";
        QTest::newRow("a bad pattern") << "[allow_host]\nauto = [\"https://x.org\"]\n"
                                       << "allow_host.auto";
        QTest::newRow("a pattern that is not a string") << "[allow_host]\nauto = [1]\n"
                                                        << "allow_host.auto";
        QTest::newRow("a timeout over 600 s") << "timeout = \"11m\"\n"
                                              << "timeout";
        QTest::newRow("a timeout that is not a duration") << "timeout = 120\n"
                                                          << "timeout";
    }

    void malformedFilesAreRefusedWithTheLine()
    {
        QFETCH(QString, text);
        QFETCH(QString, mentions);
        const auto policy = EscalationPolicy::parse(text.toStdString());
        QVERIFY(!policy);
        QVERIFY2(QString::fromStdString(policy.error().message()).contains(mentions), policy.error().message().c_str());
    }

    void aBrokenFileDeniesEverythingWithItsError()
    {
        QTemporaryDir dir;
        {
            std::ofstream file((dir.path() + "/policy.toml").toStdString());
            file << "[allow_host]\ndefault = \"auto\"\nauto = [\n";
        }
        const EscalationPolicy policy = EscalationPolicy::load(dir.path().toStdString());
        QVERIFY(!policy.brokenBecause.empty());
        const auto verdict = policy.decide(hosts({"example.com"}));
        QCOMPARE(name(verdict.grant), name(Grant::Deny));
        QVERIFY2(QString::fromStdString(verdict.reason).contains("policy.toml"), verdict.reason.c_str());
    }

    void theShippedExampleParses()
    {
        const QString path = QStringLiteral(MOAT_SOURCE_DIR "/resources/policy.toml");
        std::ifstream file(path.toStdString());
        QVERIFY2(file, qPrintable(path));
        const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        auto policy = EscalationPolicy::parse(text);
        QVERIFY2(policy, policy ? "" : policy.error().message().c_str());
        // The example states the shipped defaults.
        QCOMPARE(name(policy->allowHost), name(Grant::Ask));
        QCOMPARE(name(policy->sudo), name(Grant::Ask));
        QCOMPARE(name(policy->docker), name(Grant::Ask));
        QCOMPARE(name(policy->netOpen), name(Grant::Deny));
        QCOMPARE(policy->timeout.seconds().count(), 120);
    }
};

QTEST_GUILESS_MAIN(EscalationPolicyTest)
#include "tst_escalation_policy.moc"
