// SPDX-License-Identifier: Apache-2.0
// spec.json is the first message to moat-supervisor and the session's record
// on disk: every field survives the round trip, and whatever arrives
// malformed becomes an Error, never an exception across the process boundary.
#include "policy/spec_json.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <set>

#include <optional>

using moat::DegradableLayer;
using moat::NetworkMode;
using moat::SandboxSpec;
using nlohmann::json;

Q_DECLARE_METATYPE(json)

namespace {

// Every field set to something other than its default.
SandboxSpec everyFieldSet()
{
    SandboxSpec spec;
    spec.sessionId = "0123456789abcdef";
    spec.name = "refactor-0123";
    spec.profile = "strict";
    spec.image.kind = moat::ImageRef::Kind::RootfsDir;
    spec.image.path = "/var/lib/images/debian";
    spec.workspace = "/home/u/project";
    spec.mounts = {{"/home/u/docs", true}, {"/home/u/out", false}};
    spec.environment = {{"PATH", "/usr/bin"}, {"FOO", "a=b \"quoted\" \xc3\xa9"}, {"EMPTY", ""}};
    spec.explicitEnv = {"FOO", "EMPTY"};
    spec.sudo = true;
    spec.docker = true;
    spec.yolo = true;
    spec.localTcp = true;
    spec.network = NetworkMode::Open;
    spec.allowHosts = {"example.com", "*.Example.org:8443", "203.0.113.7", "[2001:db8::1]:443", "example.com"};
    spec.ttl = moat::Duration::fromSeconds(std::chrono::seconds(5400));
    spec.allowDegraded = {DegradableLayer::Landlock, DegradableLayer::Seccomp, DegradableLayer::UserNamespace};
    spec.command = {"bash", "-c", "echo 'hi'; exit 3", ""};
    spec.parentSessionId = "fedcba9876543210";
    spec.escalationRequestId = "r-0123456789ab";
    spec.httpRules = {"GET api.github.com /repos/o/r/** allow", "* api.github.com /** deny"};
    spec.secrets = {{"GITHUB_TOKEN", "GH_TOKEN"}};
    spec.upstreamCaFile = "/etc/moat-test/ca.pem";
    spec.askTimeout = moat::Duration::fromSeconds(std::chrono::seconds(150));
    return spec;
}

void compareSpecs(const SandboxSpec& actual, const SandboxSpec& expected)
{
    QCOMPARE(actual.sessionId, expected.sessionId);
    QCOMPARE(actual.name, expected.name);
    QCOMPARE(actual.profile, expected.profile);
    QCOMPARE(int(actual.image.kind), int(expected.image.kind));
    QCOMPARE(actual.image.path, expected.image.path);
    QCOMPARE(actual.workspace, expected.workspace);
    QCOMPARE(actual.mounts, expected.mounts);
    QVERIFY(actual.environment == expected.environment);
    QCOMPARE(actual.explicitEnv, expected.explicitEnv);
    QCOMPARE(actual.sudo, expected.sudo);
    QCOMPARE(actual.docker, expected.docker);
    QCOMPARE(actual.yolo, expected.yolo);
    QCOMPARE(actual.localTcp, expected.localTcp);
    QCOMPARE(int(actual.network), int(expected.network));
    QCOMPARE(actual.allowHosts, expected.allowHosts);
    QCOMPARE(actual.ttl, expected.ttl);
    QVERIFY(actual.allowDegraded == expected.allowDegraded);
    QCOMPARE(actual.command, expected.command);
    QCOMPARE(actual.parentSessionId, expected.parentSessionId);
    QCOMPARE(actual.escalationRequestId, expected.escalationRequestId);
    QCOMPARE(actual.httpRules, expected.httpRules);
    QVERIFY(actual.secrets == expected.secrets);
    QCOMPARE(actual.upstreamCaFile, expected.upstreamCaFile);
    QCOMPARE(actual.askTimeout, expected.askTimeout);
    QCOMPARE(actual.flagBadges(), expected.flagBadges());
}

}  // namespace

class SpecJsonRoundTrip : public QObject {
    Q_OBJECT

private slots:
    void everyFieldSurvives_data()
    {
        QTest::addColumn<int>("variant");
        QTest::newRow("every field set") << 0;
        QTest::newRow("defaults") << 1;
        QTest::newRow("net none, host image") << 2;
        QTest::newRow("net proxy, one layer") << 3;
    }

    void everyFieldSurvives()
    {
        QFETCH(int, variant);

        SandboxSpec spec;
        switch (variant) {
        case 0: spec = everyFieldSet(); break;
        case 1: spec.command = {"true"}; break;
        case 2:
            spec = everyFieldSet();
            spec.network = NetworkMode::None;
            spec.image = {};
            break;
        case 3:
            spec = everyFieldSet();
            spec.network = NetworkMode::Proxy;
            spec.allowDegraded = {DegradableLayer::UserNamespace};
            spec.ttl = moat::Duration::fromSeconds(moat::Duration::kMaximum);
            break;
        }
        const json encoded = moat::specToJson(spec);
        // Through text, as it travels.
        const auto decoded = moat::specFromJson(json::parse(encoded.dump()));
        QVERIFY2(decoded.ok(), decoded.ok() ? "" : decoded.error().message().c_str());
        compareSpecs(decoded.value(), spec);
        if (QTest::currentTestFailed()) {
            return;
        }
        // And the encoding is stable.
        QVERIFY(moat::specToJson(decoded.value()) == encoded);
    }

    void encodingHasVersionOne()
    {
        const json encoded = moat::specToJson(everyFieldSet());
        QVERIFY(encoded.at("version") == json(1));
        QVERIFY(encoded.at("net") == json("open"));
        QVERIFY(encoded.at("ttl_seconds") == json(5400));
        // As written, in order: the proxy reads them again.
        QVERIFY(encoded.at("allow_hosts") ==
                json::array({"example.com", "*.Example.org:8443", "203.0.113.7", "[2001:db8::1]:443", "example.com"}));
    }

    void malformedSpecIsAnError_data()
    {
        QTest::addColumn<json>("input");

        const json good = moat::specToJson(everyFieldSet());
        QVERIFY(moat::specFromJson(good).ok());

        QTest::newRow("null") << json();
        QTest::newRow("array") << json::array({1, 2});
        QTest::newRow("string") << json("spec");
        QTest::newRow("empty object") << json::object();
        // Fields added after the first version of the format may be absent
        // (records of older sessions); every other one is required.
        const std::set<std::string> optional = {"rules", "secrets", "upstream_ca", "ask_timeout_seconds"};
        for (const auto& [key, value] : good.items()) {
            if (optional.contains(key)) {
                continue;
            }
            json missing = good;
            missing.erase(key);
            QTest::addRow("missing %s", key.c_str()) << missing;
        }
        const auto with = [&good](const json::json_pointer& where, json value) {
            json changed = good;
            changed[where] = std::move(value);
            return changed;
        };
        QTest::newRow("version 2") << with("/version"_json_pointer, 2);
        QTest::newRow("version 0") << with("/version"_json_pointer, 0);
        QTest::newRow("version as string") << with("/version"_json_pointer, "1");
        QTest::newRow("session as number") << with("/session"_json_pointer, 7);
        QTest::newRow("sudo as string") << with("/sudo"_json_pointer, "true");
        QTest::newRow("ask timeout of 0") << with("/ask_timeout_seconds"_json_pointer, 0);
        QTest::newRow("ask timeout over an hour") << with("/ask_timeout_seconds"_json_pointer, 3601);
        QTest::newRow("ask timeout as string") << with("/ask_timeout_seconds"_json_pointer, "60");
        QTest::newRow("yolo as number") << with("/yolo"_json_pointer, 1);
        QTest::newRow("mounts as string") << with("/mounts"_json_pointer, "/home");
        QTest::newRow("mount without read_only") << with("/mounts/0"_json_pointer, json{{"path", "/x"}});
        QTest::newRow("mount path as null") << with("/mounts/0/path"_json_pointer, nullptr);
        QTest::newRow("environment value as number") << with("/environment/FOO"_json_pointer, 1);
        QTest::newRow("environment as array") << with("/environment"_json_pointer, json::array({"FOO=1"}));
        QTest::newRow("command as string") << with("/command"_json_pointer, "rm -rf /");
        QTest::newRow("command item as number") << with("/command/0"_json_pointer, 42);
        QTest::newRow("image without kind") << with("/image"_json_pointer, json{{"path", ""}});
        QTest::newRow("ttl as string") << with("/ttl_seconds"_json_pointer, "8h");
        QTest::newRow("ttl zero") << with("/ttl_seconds"_json_pointer, 0);
        QTest::newRow("ttl negative") << with("/ttl_seconds"_json_pointer, -60);
        QTest::newRow("ttl over 30 days") << with("/ttl_seconds"_json_pointer, 2592001);
        QTest::newRow("allow_degraded item as number") << with("/allow_degraded/0"_json_pointer, 3);
        QTest::newRow("net as bool") << with("/net"_json_pointer, true);
        QTest::newRow("allow_hosts as string") << with("/allow_hosts"_json_pointer, "example.com");
        QTest::newRow("allow_hosts as object") << with("/allow_hosts"_json_pointer, json{{"example.com", true}});
        QTest::newRow("allow_hosts item as number") << with("/allow_hosts/0"_json_pointer, 443);
        QTest::newRow("allow_hosts item as null") << with("/allow_hosts/0"_json_pointer, nullptr);
        for (const char* bad : {"", "*", "http://example.com", "example.com:0", "2001:db8::1", "a b", "0177.0.0.1"}) {
            QTest::addRow("allow_hosts item '%s'", bad) << with("/allow_hosts/1"_json_pointer, bad);
        }
        QTest::newRow("unknown field") << with("/rulez"_json_pointer, json::array({"GET example.com / deny"}));
        QTest::newRow("unknown field in a secret") << with("/secrets/0/value"_json_pointer, "s3cret");
        QTest::newRow("unknown field in image") << with("/image/tag"_json_pointer, "latest");
        QTest::newRow("unknown field in a mount") << with("/mounts/0/exec"_json_pointer, true);
    }

    void malformedSpecIsAnError()
    {
        QFETCH(json, input);

        bool threw = false;
        std::optional<moat::Result<SandboxSpec>> decoded;
        try {
            decoded.emplace(moat::specFromJson(input));
        } catch (...) {
            threw = true;
        }
        QVERIFY2(!threw, "an exception escaped specFromJson");
        QVERIFY2(!decoded->ok(), qPrintable(QString::fromStdString("accepted: " + input.dump())));
        QVERIFY(!decoded->error().what.empty());
        QVERIFY(!decoded->error().hint.empty());
    }
};

QTEST_GUILESS_MAIN(SpecJsonRoundTrip)
#include "tst_spec_json_round_trip.moc"
