// SPDX-License-Identifier: Apache-2.0
// What crosses the sandbox's edge for `moat probe`: the context moat gives
// moat-probe (round trip, strict), the checks moat-probe prints back (strict
// and bounded: they come from inside), and the parsers the inside checks use.
#include "probe/checks_json.h"
#include "probe/mount_table.h"
#include "probe/proxy_checks.h"
#include "probe/sandbox_context.h"

#include <QTest>

using moat::probe::Check;
using moat::probe::Checks;

class ProbeSandboxReport : public QObject {
    Q_OBJECT

private slots:
    void checksRoundTrip()
    {
        const Checks checks = {{"cap_eff_zero", true, "CapEff: 0000000000000000", 0},
                               {"records_reachable", false, "/x is reachable at /y: writable", 2},
                               {"proxy_refuses_raw_ip", false, "not asked", moat::probe::kNotAsked}};
        auto parsed = moat::probe::checksFromJson(moat::probe::checksToJson(checks));
        QVERIFY2(parsed, parsed ? "" : parsed.error().message().c_str());
        QCOMPARE(parsed.value().size(), checks.size());
        for (size_t i = 0; i < checks.size(); ++i) {
            QCOMPARE(parsed.value()[i].name, checks[i].name);
            QCOMPARE(parsed.value()[i].ok, checks[i].ok);
            QCOMPARE(parsed.value()[i].detail, checks[i].detail);
            QCOMPARE(parsed.value()[i].value, checks[i].value);
        }
    }

    void invalidReportsAreErrorsNeverChecks_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("not JSON") << "CapEff: 0";
        QTest::newRow("no list") << R"({"check":[]})";
        QTest::newRow("ok as a string") << R"({"checks":[{"name":"a","ok":"true","detail":"","value":0}]})";
        QTest::newRow("no value") << R"({"checks":[{"name":"a","ok":true,"detail":""}]})";
        QTest::newRow("name with a space") << R"({"checks":[{"name":"a b","ok":true,"detail":"","value":0}]})";
        QTest::newRow("name with an escape") << "{\"checks\":[{\"name\":\"a\\u001b\",\"ok\":true,\"detail\":\"\",\"value\":0}]}";
        QTest::newRow("a name twice") << R"({"checks":[{"name":"a","ok":false,"detail":"","value":0},)"
                                         R"({"name":"a","ok":true,"detail":"","value":0}]})";
        QTest::newRow("a huge detail")
            << QString(R"({"checks":[{"name":"a","ok":true,"detail":"%1","value":0}]})").arg(QString(9000, 'x'));
        QString many = R"({"checks":[)";
        for (int i = 0; i < 300; ++i) {
            many += QString(R"(%1{"name":"c%2","ok":true,"detail":"","value":0})").arg(i ? "," : "").arg(i);
        }
        QTest::newRow("too many checks") << many + "]}";
    }

    void invalidReportsAreErrorsNeverChecks()
    {
        QFETCH(QString, text);
        auto parsed = moat::probe::checksFromJson(text.toStdString());
        QVERIFY(!parsed);
        QVERIFY(parsed.error().message().find("invalid report") != std::string::npos);
    }

    void contextRoundTrip()
    {
        moat::probe::SandboxContext context;
        context.hostNamespaces = {{"user", 4026531837}, {"pid", 4026531836}};
        context.records = moat::probe::HostDirectory{"/home/a b/.local/state/moat/sessions", 254, 1, 42, "/a b/x"};
        context.hostBus = "unix:path=/run/user/1000/bus";
        context.workspace = "/tmp/moat-probe-abc";
        auto parsed = moat::probe::SandboxContext::fromJson(context.toJson());
        QVERIFY(parsed);
        QCOMPARE(parsed.value().hostNamespaces, context.hostNamespaces);
        QVERIFY(parsed.value().records);
        QCOMPARE(parsed.value().records->path, context.records->path);
        QCOMPARE(parsed.value().records->inode, uint64_t(42));
        QCOMPARE(parsed.value().records->pathInFileSystem, std::string("/a b/x"));
        QVERIFY(!parsed.value().checkpoints);
        QCOMPARE(parsed.value().hostBus, context.hostBus);
        QVERIFY(!moat::probe::SandboxContext::fromJson(R"({"namespaces":{}})"));
    }

    void mountInfoIsParsedWithEscapes()
    {
        const std::string text =
            "22 1 254:0 /home/u/.local/state/moat/homes/default /home/u rw,nosuid,nodev,relatime shared:1 - ext4 "
            "/dev/vda rw\n"
            "23 1 254:0 /work/my\\040dir /work/my\\040dir ro,nosuid - ext4 /dev/vda rw\n"
            "garbage line\n"
            "24 1 0:5 / /proc rw,nosuid,nodev,noexec - proc proc rw\n";
        const auto mounts = moat::probe::parseMountInfo(text);
        QCOMPARE(mounts.size(), size_t(3));
        QCOMPARE(mounts[0].major, 254u);
        QCOMPARE(mounts[0].root, std::string("/home/u/.local/state/moat/homes/default"));
        QVERIFY(mounts[0].hasOption("nosuid") && !mounts[0].hasOption("ro"));
        QCOMPARE(mounts[1].mountPoint, std::string("/work/my dir"));
        QVERIFY(mounts[1].hasOption("ro"));
        QCOMPARE(mounts[2].fsType, std::string("proc"));
    }

    void pathsAreComparedByComponent()
    {
        using moat::probe::isPathWithin;
        QVERIFY(isPathWithin("/a/b", "/a"));
        QVERIFY(isPathWithin("/a", "/a"));
        QVERIFY(isPathWithin("/anything", "/"));
        QVERIFY(!isPathWithin("/ab", "/a"));
        QVERIFY(!isPathWithin("/a", "/a/b"));
    }

    // Only moat's proxy on this sandbox's loopback is ever asked: a proxy
    // elsewhere would carry the question off the machine.
    void onlyALoopbackProxyIsAsked_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("port");
        QTest::newRow("moat's") << "http://127.0.0.1:3128" << 3128;
        QTest::newRow("trailing slash") << "http://127.0.0.1:3128/" << 3128;
        QTest::newRow("remote") << "http://proxy.example.com:3128" << 0;
        QTest::newRow("loopback by name") << "http://localhost:3128" << 0;
        QTest::newRow("prefix trick") << "http://127.0.0.1:3128@evil.example" << 0;
        QTest::newRow("port too big") << "http://127.0.0.1:65536" << 0;
        QTest::newRow("empty") << "" << 0;
    }

    void onlyALoopbackProxyIsAsked()
    {
        QFETCH(QString, url);
        QFETCH(int, port);
        QCOMPARE(int(moat::probe::loopbackProxyPort(url.toStdString())), port);
    }
};

QTEST_GUILESS_MAIN(ProbeSandboxReport)
#include "tst_probe_sandbox_report.moc"
