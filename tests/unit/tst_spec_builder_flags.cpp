// SPDX-License-Identifier: Apache-2.0
// SpecBuilder and flags: closed defaults, the environment's safe list, and
// every bad flag an error that names the flag and says what to do instead.
#include "spec_builder_fixture.h"

class SpecBuilderFlags : public SpecBuilderFixture {
    Q_OBJECT

private slots:
    void initTestCase() { prepareTree(); }

    // --- command and defaults ---------------------------------------------

    void emptyCommandIsAnError()
    {
        RunRequest req = request();
        req.command.clear();
        const auto spec = builder().build(req);
        QVERIFY(!spec.ok());
        QVERIFY(!spec.error().what.empty());
        QVERIFY(!spec.error().hint.empty());
    }

    void plainRequestGetsTheClosedDefaults()
    {
        RunRequest req = request();
        req.command = {"bash", "-c", "echo hi"};
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->command, (StringList{"bash", "-c", "echo hi"}));
        QCOMPARE(int(spec->image.kind), int(moat::ImageRef::Kind::Host));
        QCOMPARE(int(spec->network), int(NetworkMode::Proxy));
        QCOMPARE(spec->ttl.seconds(), std::chrono::seconds(8 * 3600));
        QVERIFY(!spec->sudo);
        QVERIFY(!spec->docker);
        QVERIFY(!spec->yolo);
        QVERIFY(!spec->localTcp);
        QVERIFY(spec->mounts.empty());
        QVERIFY(spec->explicitEnv.empty());
        QVERIFY(spec->allowDegraded.empty());
        QCOMPARE(spec->profile, std::string("default"));
        QCOMPARE(spec->flagBadges(), (StringList{"net:proxy", "ttl:8h"}));
    }

    void sessionIdIsFreshRandomHex()
    {
        const auto first = builder().build(request());
        const auto second = builder().build(request());
        VERIFY_BUILT(first);
        VERIFY_BUILT(second);
        const QRegularExpression hex(QStringLiteral("^[0-9a-f]{16}$"));
        QVERIFY(hex.match(QString::fromStdString(first->sessionId)).hasMatch());
        QVERIFY(hex.match(QString::fromStdString(second->sessionId)).hasMatch());
        QVERIFY(first->sessionId != second->sessionId);
    }

    // --- environment -------------------------------------------------------

    void safeVariables_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("safe");

        for (const char* name : {"PATH", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "COLORTERM"}) {
            QTest::newRow(name) << name << true;
        }
        for (const char* name : {"AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "HOME", "USER", "SSH_AUTH_SOCK", "LD_PRELOAD",
                                 "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "MOAT_SESSION", "path", "PATHEXT", "LCALL",
                                 "lc_all", "TERMINFO", "TZDIR", ""}) {
            QTest::newRow(*name ? name : "(empty)") << name << false;
        }
    }

    void safeVariables()
    {
        QFETCH(QString, name);
        QFETCH(bool, safe);
        QCOMPARE(SpecBuilder::isSafeVariable(name.toStdString()), safe);
    }

    void onlySafeVariablesPassWithoutAsking()
    {
        const auto spec = builder().build(request());
        VERIFY_BUILT(spec);
        const Environment expected = {{"PATH", "/usr/local/bin:/usr/bin:/bin"},
                                      {"TERM", "xterm-256color"},
                                      {"LANG", "en_GB.UTF-8"},
                                      {"LC_ALL", "C.UTF-8"},
                                      {"LC_MESSAGES", "C"},
                                      {"TZ", "Europe/London"},
                                      {"COLORTERM", "truecolor"}};
        QCOMPARE(spec->environment, expected);
        QVERIFY(spec->explicitEnv.empty());
    }

    void envFlagPassesOneMore_data()
    {
        QTest::addColumn<StringList>("requested");
        QTest::addColumn<Environment>("added");

        QTest::newRow("NAME from the caller") << StringList{"AWS_SECRET_ACCESS_KEY"}
                                              << Environment{{"AWS_SECRET_ACCESS_KEY",
                                                              "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}};
        QTest::newRow("NAME=VALUE") << StringList{"FOO=bar"} << Environment{{"FOO", "bar"}};
        QTest::newRow("value holding '='") << StringList{"FOO=a=b"} << Environment{{"FOO", "a=b"}};
        QTest::newRow("empty value") << StringList{"FOO="} << Environment{{"FOO", ""}};
        QTest::newRow("value over a caller's variable") << StringList{"HOME=/elsewhere"} << Environment{{"HOME", "/elsewhere"}};
        QTest::newRow("over a safe variable") << StringList{"PATH=/opt/bin"} << Environment{{"PATH", "/opt/bin"}};
        QTest::newRow("several") << StringList{"GITHUB_TOKEN", "_X1=1"}
                                 << Environment{{"GITHUB_TOKEN", "ghp_notarealtoken"}, {"_X1", "1"}};
    }

    void envFlagPassesOneMore()
    {
        QFETCH(StringList, requested);
        QFETCH(Environment, added);

        RunRequest req = request();
        req.env = requested;
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        for (const auto& [name, value] : added) {
            QVERIFY2(spec->environment.count(name), name.c_str());
            QCOMPARE(spec->environment.at(name), value);
        }
        // Nothing else of the caller's comes along.
        QVERIFY(!spec->environment.count("SSH_AUTH_SOCK"));
        QVERIFY(!spec->environment.count("LD_PRELOAD"));
        StringList names;
        for (const auto& item : requested) {
            names.push_back(item.substr(0, item.find('=')));
        }
        QCOMPARE(spec->explicitEnv, names);
    }

    void envFlagRefusesBadNames_data()
    {
        QTest::addColumn<QString>("item");

        QTest::newRow("NAME not set anywhere") << "NOT_SET_ANYWHERE";
        QTest::newRow("MOAT_SESSION=...") << "MOAT_SESSION=forged";
        QTest::newRow("MOAT_SESSION from the caller") << "MOAT_SESSION";
        QTest::newRow("MOAT_API") << "MOAT_API=http://evil/";
        QTest::newRow("MOAT_ alone") << "MOAT_=x";
        QTest::newRow("empty") << "";
        QTest::newRow("empty name") << "=value";
        QTest::newRow("leading digit") << "1ABC=x";
        QTest::newRow("dash") << "A-B=x";
        QTest::newRow("space") << "A B=x";
        QTest::newRow("dot") << "a.b=x";
        QTest::newRow("non-ASCII") << "\xc3\x89T\xc3\x89=x";
    }

    void envFlagRefusesBadNames()
    {
        QFETCH(QString, item);

        RunRequest req = request();
        req.env = {item.toStdString()};
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--env");
    }

    // --- network, docker, yolo ---------------------------------------------

    void networkModes_data()
    {
        QTest::addColumn<QString>("net");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("mode");

        QTest::newRow("proxy") << "proxy" << true << int(NetworkMode::Proxy);
        QTest::newRow("none") << "none" << true << int(NetworkMode::None);
        QTest::newRow("open") << "open" << true << int(NetworkMode::Open);
        QTest::newRow("empty") << "" << false << 0;
        QTest::newRow("upper case") << "OPEN" << false << 0;
        QTest::newRow("host") << "host" << false << 0;
        QTest::newRow("trailing space") << "none " << false << 0;
    }

    void networkModes()
    {
        QFETCH(QString, net);
        QFETCH(bool, valid);
        QFETCH(int, mode);

        RunRequest req = request();
        req.net = net.toStdString();
        const auto spec = builder().build(req);
        if (valid) {
            VERIFY_BUILT(spec);
            QCOMPARE(int(spec->network), mode);
        } else {
            VERIFY_FLAG_ERROR(spec, "--net");
        }
    }

    void dockerIsRefused()
    {
        RunRequest req = request();
        req.docker = true;
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--docker");
    }

    void sudoAloneOpensNothingElse()
    {
        RunRequest req = request();
        req.sudo = true;
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QVERIFY(spec->sudo);
        QVERIFY(!spec->yolo);
        QCOMPARE(int(spec->network), int(NetworkMode::Proxy));
        QVERIFY(!spec->localTcp);
    }

    void yoloImpliesSudoOpenNetworkAndLocalTcp()
    {
        RunRequest req = request();
        req.yolo = true;
        req.net = "none";  // yolo opens everything, whatever else was asked
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QVERIFY(spec->yolo);
        QVERIFY(spec->sudo);
        QCOMPARE(int(spec->network), int(NetworkMode::Open));
        QVERIFY(spec->localTcp);
        // ...and the record says so.
        const auto badges = spec->flagBadges();
        QCOMPARE(badges.front(), std::string("yolo"));
        QVERIFY(std::find(badges.begin(), badges.end(), "net:open") != badges.end());
    }

    // --- ttl -----------------------------------------------------------------

    void ttlIsParsed()
    {
        RunRequest req = request();
        req.ttl = "1h30m";
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->ttl.seconds(), std::chrono::seconds(5400));
    }

    void badTtlNamesTheFlag_data()
    {
        QTest::addColumn<QString>("ttl");
        for (const char* ttl : {"", "0s", "10", "5x", "-1h", "31d", "forever"}) {
            QTest::newRow(*ttl ? ttl : "(empty)") << ttl;
        }
    }

    void badTtlNamesTheFlag()
    {
        QFETCH(QString, ttl);
        RunRequest req = request();
        req.ttl = ttl.toStdString();
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--ttl");
    }

    // --- --allow-degraded ----------------------------------------------------

    void allowDegradedLists_data()
    {
        QTest::addColumn<StringList>("lists");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QList<int>>("layers");

        const int landlock = int(DegradableLayer::Landlock);
        const int seccomp = int(DegradableLayer::Seccomp);
        const int userns = int(DegradableLayer::UserNamespace);
        QTest::newRow("none") << StringList{} << true << QList<int>{};
        QTest::newRow("one") << StringList{"landlock"} << true << QList<int>{landlock};
        QTest::newRow("comma list") << StringList{"landlock,seccomp"} << true << QList<int>{landlock, seccomp};
        QTest::newRow("repeated flag") << StringList{"seccomp", "userns"} << true << QList<int>{seccomp, userns};
        QTest::newRow("all three") << StringList{"userns,landlock,seccomp"} << true
                                   << QList<int>{landlock, seccomp, userns};
        QTest::newRow("duplicate") << StringList{"seccomp,seccomp", "seccomp"} << true << QList<int>{seccomp};
        QTest::newRow("unknown") << StringList{"apparmor"} << false << QList<int>{};
        QTest::newRow("unknown in a list") << StringList{"landlock,bogus"} << false << QList<int>{};
        QTest::newRow("empty") << StringList{""} << false << QList<int>{};
        QTest::newRow("trailing comma") << StringList{"landlock,"} << false << QList<int>{};
        QTest::newRow("empty item") << StringList{"landlock,,seccomp"} << false << QList<int>{};
        QTest::newRow("space after comma") << StringList{"landlock, seccomp"} << false << QList<int>{};
        QTest::newRow("upper case") << StringList{"Landlock"} << false << QList<int>{};
        QTest::newRow("everything") << StringList{"all"} << false << QList<int>{};
    }

    void allowDegradedLists()
    {
        QFETCH(StringList, lists);
        QFETCH(bool, valid);
        QFETCH(QList<int>, layers);

        RunRequest req = request();
        req.allowDegraded = lists;
        const auto spec = builder().build(req);
        if (!valid) {
            VERIFY_FLAG_ERROR(spec, "--allow-degraded");
            return;
        }
        VERIFY_BUILT(spec);
        std::set<DegradableLayer> expected;
        for (int layer : layers) {
            expected.insert(DegradableLayer(layer));
        }
        QVERIFY(spec->allowDegraded == expected);
    }

    // --- --name --------------------------------------------------------------

    void sessionNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");

        QTest::newRow("word") << "refactor" << true;
        QTest::newRow("one character") << "a" << true;
        QTest::newRow("digits first") << "2nd-try" << true;
        QTest::newRow("dots underscores dashes") << "A.b_c-1" << true;
        QTest::newRow("63 characters") << QString(63, 'x') << true;
        QTest::newRow("64 characters") << QString(64, 'x') << false;
        QTest::newRow("leading dash") << "-rf" << false;
        QTest::newRow("leading dot") << ".hidden" << false;
        QTest::newRow("leading underscore") << "_x" << false;
        QTest::newRow("space") << "my session" << false;
        QTest::newRow("slash") << "a/b" << false;
        QTest::newRow("dot-dot") << ".." << false;
        QTest::newRow("newline") << "a\nb" << false;
        QTest::newRow("non-ASCII") << QString::fromUtf8("caf\xc3\xa9") << false;
    }

    void sessionNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);

        RunRequest req = request();
        req.name = name.toStdString();
        const auto spec = builder().build(req);
        if (valid) {
            VERIFY_BUILT(spec);
            QCOMPARE(QString::fromStdString(spec->name), name);
        } else {
            VERIFY_FLAG_ERROR(spec, "--name");
        }
    }

    void generatedNameIsWorkspaceAndIdPrefix_data()
    {
        QTest::addColumn<QString>("workspace");
        QTest::addColumn<QString>("prefix");

        QTest::newRow("plain") << "project" << "project-";
        QTest::newRow("odd characters") << "my project!" << "my-project--";
        QTest::newRow("leading dot") << ".hidden" << "session-";
        QTest::newRow("non-ASCII") << QString::fromUtf8("caf\xc3\xa9") << "caf---";
        QTest::newRow("long") << "a-very-long-workspace-name-that-goes-on-and-on-and-on-and-on-and-on"
                              << "a-very-long-workspace-name-that-goes-on--";
    }

    void generatedNameIsWorkspaceAndIdPrefix()
    {
        QFETCH(QString, workspace);
        QFETCH(QString, prefix);

        RunRequest req = request();
        req.workspace = at(workspace).toStdString();
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        const QString name = QString::fromStdString(spec->name);
        QCOMPARE(name, prefix + QString::fromStdString(spec->sessionId.substr(0, 6)));
        // A generated name is always one a person could have given with --name.
        QVERIFY2(kSessionName.match(name).hasMatch(), qPrintable(name));
    }
};

QTEST_GUILESS_MAIN(SpecBuilderFlags)
#include "tst_spec_builder_flags.moc"
