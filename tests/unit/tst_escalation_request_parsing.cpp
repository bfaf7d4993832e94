// SPDX-License-Identifier: Apache-2.0
// An escalation request is the agent's text: every field is checked for its
// type and its limits, unknown fields and invalid hosts are refused, and a
// request that asks for nothing is no request. What passes round-trips.
#include "policy/escalation_request.h"

#include <QTest>

using nlohmann::json;

class EscalationRequestParsing : public QObject {
    Q_OBJECT

private slots:
    void acceptsEveryField();
    void roundTrips();
    void refusesMalformed_data();
    void refusesMalformed();
    void enforcesLimits();
    void flagArgumentsSpellTheRunFlags();
};

void EscalationRequestParsing::acceptsEveryField()
{
    const json body = {{"allow_hosts", {"pypi.org", "*.pythonhosted.org:443"}},
                       {"sudo", true},
                       {"docker", false},
                       {"net", "open"},
                       {"reason", "install \"numpy\"\n"},
                       {"command", {"pip", "install", "numpy"}}};
    auto request = moat::escalationRequestFromJson(body);
    QVERIFY2(request.ok(), request.ok() ? "" : request.error().message().c_str());
    QCOMPARE(request->allowHosts.size(), size_t(2));
    QVERIFY(request->sudo);
    QVERIFY(!request->docker);
    QVERIFY(request->netOpen);
    QCOMPARE(request->reason, std::string("install \"numpy\"\n"));
    QCOMPARE(request->command.size(), size_t(3));
}

void EscalationRequestParsing::roundTrips()
{
    moat::EscalationRequest request;
    request.allowHosts = {"example.com"};
    request.docker = true;
    request.reason = "tests need a container";
    auto again = moat::escalationRequestFromJson(moat::toJson(request));
    QVERIFY(again.ok());
    QCOMPARE(again->allowHosts, request.allowHosts);
    QCOMPARE(again->docker, true);
    QCOMPARE(again->sudo, false);
    QCOMPARE(again->netOpen, false);
    QCOMPARE(again->reason, request.reason);
    QVERIFY(!moat::toJson(request).contains("net"));
}

void EscalationRequestParsing::refusesMalformed_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("not an object") << QByteArray(R"(["sudo"])") << "JSON object";
    QTest::newRow("empty object") << QByteArray("{}") << "asks for nothing";
    QTest::newRow("only a reason") << QByteArray(R"({"reason":"please"})") << "asks for nothing";
    QTest::newRow("all false") << QByteArray(R"({"sudo":false,"docker":false,"allow_hosts":[]})") << "asks for nothing";
    QTest::newRow("unknown field") << QByteArray(R"({"sudo":true,"yolo":true})") << "unknown field 'yolo'";
    QTest::newRow("sudo as a string") << QByteArray(R"({"sudo":"true"})") << "sudo must be true or false";
    QTest::newRow("sudo as a number") << QByteArray(R"({"sudo":1})") << "sudo must be true or false";
    QTest::newRow("docker null") << QByteArray(R"({"docker":null})") << "docker must be true or false";
    QTest::newRow("net proxy") << QByteArray(R"({"net":"proxy"})") << "net may only be";
    QTest::newRow("net true") << QByteArray(R"({"net":true})") << "net may only be";
    QTest::newRow("hosts a string") << QByteArray(R"({"allow_hosts":"pypi.org"})") << "allow_hosts must be an array";
    QTest::newRow("host a number") << QByteArray(R"({"allow_hosts":[443]})") << "allow_hosts[0] must be a string";
    QTest::newRow("host with a path") << QByteArray(R"({"allow_hosts":["pypi.org/simple"]})")
                                      << "allow_hosts[0] 'pypi.org/simple'";
    QTest::newRow("host a bare wildcard") << QByteArray(R"({"allow_hosts":["*"]})") << "allow_hosts[0]";
    QTest::newRow("host with a scheme") << QByteArray(R"({"allow_hosts":["https://pypi.org"]})") << "allow_hosts[0]";
    QTest::newRow("host empty") << QByteArray(R"({"allow_hosts":["ok.org",""]})") << "allow_hosts[1]";
    QTest::newRow("reason a list") << QByteArray(R"({"sudo":true,"reason":["a"]})") << "reason must be a string";
    QTest::newRow("command a string") << QByteArray(R"({"sudo":true,"command":"rm -rf /"})")
                                      << "command must be an array";
    QTest::newRow("command with a number")
        << QByteArray(R"({"sudo":true,"command":["ls",1]})") << "command[1] must be a string";
    QTest::newRow("command with a NUL") << QByteArray(R"({"sudo":true,"command":["ls","a\u0000b"]})") << "NUL";
    QTest::newRow("empty program") << QByteArray(R"({"sudo":true,"command":[""]})") << "command[0] is empty";
}

void EscalationRequestParsing::refusesMalformed()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, mentions);
    auto parsed = json::parse(body.toStdString());
    auto request = moat::escalationRequestFromJson(parsed);
    QVERIFY(!request.ok());
    const QString message = QString::fromStdString(request.error().message());
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY2(message.startsWith(QLatin1String("malformed escalation request")), qPrintable(message));
}

void EscalationRequestParsing::enforcesLimits()
{
    const moat::EscalationRequestLimits limits;
    json hosts = json::array();
    for (std::size_t i = 0; i <= limits.maxHosts; ++i) {
        hosts.push_back("h" + std::to_string(i) + ".example.com");
    }
    auto tooMany = moat::escalationRequestFromJson({{"allow_hosts", hosts}});
    QVERIFY(!tooMany.ok());
    QVERIFY(tooMany.error().message().find("at most 32") != std::string::npos);
    hosts.erase(hosts.begin());
    QVERIFY(moat::escalationRequestFromJson({{"allow_hosts", hosts}}).ok());

    const std::string longReason(limits.maxReason + 1, 'x');
    QVERIFY(!moat::escalationRequestFromJson({{"sudo", true}, {"reason", longReason}}).ok());
    QVERIFY(moat::escalationRequestFromJson({{"sudo", true}, {"reason", longReason.substr(1)}}).ok());

    json manyArgs = json::array();
    for (std::size_t i = 0; i <= limits.maxCommandArgs; ++i) {
        manyArgs.push_back("a");
    }
    QVERIFY(!moat::escalationRequestFromJson({{"sudo", true}, {"command", manyArgs}}).ok());

    const std::string bigArg(limits.maxCommandBytes, 'y');
    auto tooBig = moat::escalationRequestFromJson({{"sudo", true}, {"command", {"echo", bigArg}}});
    QVERIFY(!tooBig.ok());
    QVERIFY(tooBig.error().message().find("bytes long") != std::string::npos);

    // An error quotes the agent's text only briefly.
    const std::string hugeHost(5000, 'z');
    auto quoted = moat::escalationRequestFromJson({{"allow_hosts", {hugeHost + "/"}}});
    QVERIFY(!quoted.ok());
    QVERIFY(quoted.error().message().size() < 1200);
}

void EscalationRequestParsing::flagArgumentsSpellTheRunFlags()
{
    moat::EscalationRequest request;
    request.allowHosts = {"a.org", "b.org:8443"};
    request.sudo = true;
    request.docker = true;
    request.netOpen = true;
    const std::vector<std::string> expected = {"--allow-host", "a.org",    "--allow-host", "b.org:8443",
                                               "--sudo",       "--docker", "--net",        "open"};
    QCOMPARE(request.flagArguments(), expected);
    QVERIFY(moat::EscalationRequest{}.empty());
    QVERIFY(!request.empty());
}

QTEST_APPLESS_MAIN(EscalationRequestParsing)
#include "tst_escalation_request_parsing.moc"
