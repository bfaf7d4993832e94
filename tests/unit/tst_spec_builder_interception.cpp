// SPDX-License-Identifier: Apache-2.0
// SpecBuilder and the flags that make the proxy see inside TLS: --rule,
// --secret and --upstream-ca need --net proxy, a secret's variable must be
// one moat does not set itself, and everything is kept as written, in order,
// in the spec, its JSON and its badges.
#include "spec_builder_fixture.h"

#include "policy/spec_json.h"

#include <nlohmann/json.hpp>

class SpecBuilderInterception : public SpecBuilderFixture {
    Q_OBJECT

private slots:
    void initTestCase() { prepareTree(); }

    void rulesAndSecretsAreKeptInOrder()
    {
        RunRequest req = request();
        req.rules = {"GET api.github.com /repos/** allow", "push github.com o/r refs/heads/main ask"};
        req.secrets = {"GITHUB_TOKEN", "NPM=NPM_TOKEN"};
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->httpRules, req.rules);
        QCOMPARE(spec->secrets.size(), size_t(2));
        QCOMPARE(spec->secrets[0].name, std::string("GITHUB_TOKEN"));
        QCOMPARE(spec->secrets[0].envVar, std::string("GITHUB_TOKEN"));
        QCOMPARE(spec->secrets[1].name, std::string("NPM"));
        QCOMPARE(spec->secrets[1].envVar, std::string("NPM_TOKEN"));
        QVERIFY(spec->intercepts());
        const auto badges = spec->flagBadges();
        for (const char* badge : {"rule:GET api.github.com /repos/** allow", "secret:GITHUB_TOKEN", "secret:NPM=NPM_TOKEN"}) {
            QVERIFY2(std::find(badges.begin(), badges.end(), badge) != badges.end(), badge);
        }
        auto again = moat::specFromJson(moat::specToJson(spec.value()));
        QVERIFY(again.ok());
        QCOMPARE(again->httpRules, spec->httpRules);
        QVERIFY(again->secrets == spec->secrets);
    }

    void aPlainSpecInterceptsNothing()
    {
        const auto spec = builder().build(request());
        VERIFY_BUILT(spec);
        QVERIFY(!spec->intercepts());
        // A spec written before these fields existed still reads.
        auto json = moat::specToJson(spec.value());
        json.erase("rules");
        json.erase("secrets");
        json.erase("upstream_ca");
        json.erase("ask_timeout_seconds");
        const auto old = moat::specFromJson(json);
        QVERIFY(old.ok());
        QCOMPARE(old->askTimeout.seconds(), std::chrono::seconds(60));
    }

    void theyNeedTheProxy_data()
    {
        QTest::addColumn<QString>("net");
        QTest::addColumn<bool>("yolo");
        QTest::newRow("--net none") << "none" << false;
        QTest::newRow("--net open") << "open" << false;
        QTest::newRow("--yolo") << "proxy" << true;
    }

    void theyNeedTheProxy()
    {
        QFETCH(QString, net);
        QFETCH(bool, yolo);
        RunRequest rule = request();
        rule.net = net.toStdString();
        rule.yolo = yolo;
        rule.rules = {"GET example.com / allow"};
        VERIFY_FLAG_ERROR(builder().build(rule), "--rule");
        RunRequest secret = request();
        secret.net = net.toStdString();
        secret.yolo = yolo;
        secret.secrets = {"TOKEN"};
        VERIFY_FLAG_ERROR(builder().build(secret), "--secret");
    }

    void badRulesAreRefused_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::newRow("empty") << "";
        QTest::newRow("three words") << "GET example.com allow";
        QTest::newRow("unknown action") << "GET example.com / maybe";
        QTest::newRow("every host") << "GET * / allow";
        QTest::newRow("a query in the path") << "GET example.com /a?b allow";
    }

    void badRulesAreRefused()
    {
        QFETCH(QString, rule);
        RunRequest req = request();
        req.rules = {"GET example.com / allow", rule.toStdString()};
        VERIFY_FLAG_ERROR(builder().build(req), "--rule");
    }

    void badSecretsAreRefused_data()
    {
        QTest::addColumn<StringList>("values");
        QTest::newRow("empty") << StringList{""};
        QTest::newRow("dash in the name") << StringList{"my-token"};
        QTest::newRow("leading digit") << StringList{"1TOKEN"};
        QTest::newRow("empty variable") << StringList{"TOKEN="};
        QTest::newRow("moat's own variable") << StringList{"TOKEN=MOAT_API"};
        QTest::newRow("a proxy variable") << StringList{"TOKEN=https_proxy"};
        QTest::newRow("a trust variable") << StringList{"TOKEN=SSL_CERT_FILE"};
        QTest::newRow("one variable twice") << StringList{"A=TOKEN", "B=TOKEN"};
    }

    void badSecretsAreRefused()
    {
        QFETCH(StringList, values);
        RunRequest req = request();
        req.secrets = values;
        VERIFY_FLAG_ERROR(builder().build(req), "--secret");
    }

    void aSecretAndEnvForTheSameVariableIsAnError()
    {
        RunRequest req = request();
        req.env = {"TOKEN=plain"};
        req.secrets = {"TOKEN"};
        VERIFY_FLAG_ERROR(builder().build(req), "--secret");
    }

    void askTimeoutIsADurationOfAtMostAnHour_data()
    {
        QTest::addColumn<QString>("given");
        QTest::addColumn<int>("seconds");  // 0: refused
        QTest::newRow("default") << "" << 60;
        QTest::newRow("seconds") << "5s" << 5;
        QTest::newRow("minutes") << "10m" << 600;
        QTest::newRow("an hour") << "1h" << 3600;
        QTest::newRow("over an hour") << "1h1s" << 0;
        QTest::newRow("a day") << "1d" << 0;
        QTest::newRow("zero") << "0s" << 0;
        QTest::newRow("no unit") << "30" << 0;
        QTest::newRow("words") << "soon" << 0;
    }

    void askTimeoutIsADurationOfAtMostAnHour()
    {
        QFETCH(QString, given);
        QFETCH(int, seconds);
        RunRequest req = request();
        req.rules = {"POST api.github.com /repos/** ask"};
        req.askTimeout = given.toStdString();
        const auto spec = builder().build(req);
        if (seconds == 0) {
            VERIFY_FLAG_ERROR(spec, "--ask-timeout");
            return;
        }
        VERIFY_BUILT(spec);
        QCOMPARE(spec->askTimeout.seconds(), std::chrono::seconds(seconds));
        auto again = moat::specFromJson(moat::specToJson(spec.value()));
        QVERIFY(again.ok());
        QCOMPARE(again->askTimeout, spec->askTimeout);
    }

    void upstreamCaMustBeAReadableFile()
    {
        RunRequest missing = request();
        missing.upstreamCa = at("no-such-ca.pem").toStdString();
        VERIFY_FLAG_ERROR(builder().build(missing), "--upstream-ca");
        RunRequest directory = request();
        directory.upstreamCa = root_.toStdString();
        VERIFY_FLAG_ERROR(builder().build(directory), "--upstream-ca");

        QFile file(at("ca.pem"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("-----BEGIN CERTIFICATE-----\n");
        file.close();
        RunRequest good = request();
        good.upstreamCa = at("ca.pem").toStdString();
        const auto spec = builder().build(good);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->upstreamCaFile, canonical(at("ca.pem")));
        QVERIFY(!spec->intercepts());  // trusting a CA alone intercepts nothing
    }
};

QTEST_GUILESS_MAIN(SpecBuilderInterception)
#include "tst_spec_builder_interception.moc"
