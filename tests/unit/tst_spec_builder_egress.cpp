// SPDX-License-Identifier: Apache-2.0
// SpecBuilder and the egress flags: --allow-host values kept as written and
// checked before the sandbox starts, --allow-host refused where no proxy
// would enforce it, and the proxy variables left to moat under --net proxy.
#include "spec_builder_fixture.h"

class SpecBuilderEgress : public SpecBuilderFixture {
    Q_OBJECT

private slots:
    void initTestCase() { prepareTree(); }

    // --- --allow-host values -------------------------------------------------

    void validAllowHostsAreKeptAsWritten_data()
    {
        QTest::addColumn<StringList>("values");

        QTest::newRow("name") << StringList{"example.com"};
        QTest::newRow("name with a port") << StringList{"example.com:8443"};
        QTest::newRow("upper case, trailing dot") << StringList{"API.Example.COM."};
        QTest::newRow("underscore and dash") << StringList{"_dmarc.my-host.example"};
        QTest::newRow("punycode") << StringList{"xn--bcher-kva.example"};
        QTest::newRow("wildcard") << StringList{"*.example.com"};
        QTest::newRow("wildcard with a port") << StringList{"*.example.com:8443"};
        QTest::newRow("IPv4") << StringList{"203.0.113.7"};
        QTest::newRow("IPv4 with a port") << StringList{"203.0.113.7:443"};
        QTest::newRow("IPv6") << StringList{"[2001:db8::1]"};
        QTest::newRow("IPv6 with a port") << StringList{"[2001:db8::1]:443"};
        QTest::newRow("loopback name, exactly") << StringList{"localhost:8080"};
        QTest::newRow("highest port") << StringList{"example.com:65535"};
        QTest::newRow("several, in order") << StringList{"pypi.org", "*.pythonhosted.org", "203.0.113.7:8443"};
        QTest::newRow("the same twice") << StringList{"example.com", "example.com"};
    }

    void validAllowHostsAreKeptAsWritten()
    {
        QFETCH(StringList, values);

        RunRequest req = request();
        req.allowHosts = values;
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->allowHosts, values);
        QCOMPARE(int(spec->network), int(NetworkMode::Proxy));
        // One badge per value, in order, right after the network mode.
        StringList expected{"net:proxy"};
        for (const auto& value : values) {
            expected.push_back("allow-host:" + value);
        }
        expected.push_back("ttl:8h");
        QCOMPARE(spec->flagBadges(), expected);
    }

    void invalidAllowHostsAreRefused_data()
    {
        QTest::addColumn<StringList>("values");
        QTest::addColumn<QString>("culprit");

        const auto row = [](const char* name, const char* value) {
            QTest::newRow(name) << StringList{value} << QString::fromUtf8(value);
        };
        row("empty", "");
        row("star alone", "*");
        row("wildcard over a top-level domain", "*.com");
        row("star inside a label", "foo*.example.com");
        row("star not first", "api.*.example.com");
        row("URL", "https://example.com");
        row("path", "example.com/api");
        row("user name", "user@example.com");
        row("port 0", "example.com:0");
        row("port too high", "example.com:65536");
        row("empty port", "example.com:");
        row("port by name", "example.com:https");
        row("IPv6 without brackets", "2001:db8::1");
        row("IPv4 in brackets", "[203.0.113.7]");
        row("unclosed bracket", "[2001:db8::1");
        row("IPv6 zone", "[fe80::1%eth0]");
        row("octal IPv4", "0177.0.0.1");
        row("decimal IPv4", "2130706433");
        row("ends in a number", "example.123");
        row("space", "exa mple.com");
        row("newline", "example.com\nevil.com");
        row("non-ASCII", "caf\xc3\xa9.example");
        row("empty label", "example..com");
        row("label starting with a dash", "-example.com");
        QTest::newRow("one bad among good ones")
            << StringList{"example.com", "bad host", "example.org"} << QStringLiteral("bad host");
    }

    void invalidAllowHostsAreRefused()
    {
        QFETCH(StringList, values);
        QFETCH(QString, culprit);

        RunRequest req = request();
        req.allowHosts = values;
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--allow-host");
        // Which value is wrong, once, and how to write one.
        const QString what = QString::fromStdString(spec.error().what);
        QVERIFY2(what.contains('\'' + culprit + '\''), qPrintable(what));
        QCOMPARE(what.count(QStringLiteral("--allow-host")), 1);
        QVERIFY2(QString::fromStdString(spec.error().hint).contains(QStringLiteral("example.com:8443")),
                 spec.error().hint.c_str());
    }

    // --- --allow-host needs the proxy ---------------------------------------

    void allowHostWithoutTheProxyIsRefused_data()
    {
        QTest::addColumn<QString>("net");
        QTest::addColumn<bool>("yolo");
        QTest::addColumn<QString>("named");

        QTest::newRow("--net none") << "none" << false << "--net none";
        QTest::newRow("--net open") << "open" << false << "--net open";
        QTest::newRow("--yolo") << "proxy" << true << "--yolo";
        QTest::newRow("--yolo --net none") << "none" << true << "--yolo";
    }

    void allowHostWithoutTheProxyIsRefused()
    {
        QFETCH(QString, net);
        QFETCH(bool, yolo);
        QFETCH(QString, named);

        RunRequest req = request();
        req.net = net.toStdString();
        req.yolo = yolo;
        req.allowHosts = {"example.com"};
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--allow-host");
        // It says which flag makes --allow-host pointless, and that it would.
        const QString what = QString::fromStdString(spec.error().what);
        QVERIFY2(what.contains(named), qPrintable(what));
        QVERIFY2(what.contains(QStringLiteral("would do nothing")), qPrintable(what));
    }

    void noAllowHostIsFineWithEveryMode_data()
    {
        QTest::addColumn<QString>("net");
        for (const char* net : {"proxy", "none", "open"}) {
            QTest::newRow(net) << net;
        }
    }

    void noAllowHostIsFineWithEveryMode()
    {
        QFETCH(QString, net);
        RunRequest req = request();
        req.net = net.toStdString();
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QVERIFY(spec->allowHosts.empty());
    }

    // --- the proxy variables ---------------------------------------------------

    void proxyVariablesAreMoatsUnderTheProxy_data()
    {
        QTest::addColumn<QString>("item");
        QTest::addColumn<bool>("refused");

        for (const char* item :
             {"HTTP_PROXY=http://corp:3128", "http_proxy=http://corp:3128", "HTTPS_PROXY=http://x",
              "https_proxy=http://x", "ALL_PROXY=socks5://x:1080", "all_proxy=socks5://x:1080", "NO_PROXY=*",
              "no_proxy=*", "Https_Proxy=http://x", "hTtP_pRoXy=http://x", "NO_PROXY="}) {
            QTest::newRow(item) << item << true;
        }
        // Names moat does not set pass as any other.
        for (const char* item : {"FTP_PROXY=http://x", "HTTP_PROXY_USER=me", "MY_PROXY=x", "PROXY=x"}) {
            QTest::newRow(item) << item << false;
        }
    }

    void proxyVariablesAreMoatsUnderTheProxy()
    {
        QFETCH(QString, item);
        QFETCH(bool, refused);

        RunRequest req = request();
        req.env = {item.toStdString()};
        const auto spec = builder().build(req);
        if (!refused) {
            VERIFY_BUILT(spec);
            return;
        }
        VERIFY_FLAG_ERROR(spec, "--env");
        const QString name = item.section('=', 0, 0);
        QVERIFY(QString::fromStdString(spec.error().what).contains(name));
        QVERIFY(QString::fromStdString(spec.error().hint).contains(QStringLiteral("--allow-host")));
    }

    // Without moat's proxy moat sets none of them: the user's own proxy is
    // theirs to pass.
    void proxyVariablesPassWithoutTheProxy_data()
    {
        QTest::addColumn<QString>("net");
        QTest::addColumn<bool>("yolo");

        QTest::newRow("--net none") << "none" << false;
        QTest::newRow("--net open") << "open" << false;
        QTest::newRow("--yolo") << "proxy" << true;
    }

    void proxyVariablesPassWithoutTheProxy()
    {
        QFETCH(QString, net);
        QFETCH(bool, yolo);

        RunRequest req = request();
        req.net = net.toStdString();
        req.yolo = yolo;
        req.env = {"HTTPS_PROXY=http://corp.example:3128", "no_proxy=.corp.example"};
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->environment.at("HTTPS_PROXY"), std::string("http://corp.example:3128"));
        QCOMPARE(spec->environment.at("no_proxy"), std::string(".corp.example"));
    }
};

QTEST_GUILESS_MAIN(SpecBuilderEgress)
#include "tst_spec_builder_egress.moc"
