// SPDX-License-Identifier: Apache-2.0
// The supervisor's parent link (core/session/parent_link.h), driven by
// tests/tools/parent-link-driver in moatd's place against the real
// moat-supervisor and a real sandbox: hello, started and ended; stop and
// renew recorded with who asked; signals forwarded; an agent's escalation
// requests (curl and `moat request` inside the sandbox) held until the
// parent's decision and recorded with who decided; embedded mode answering
// 503 at once; re-attaching through the supervisor's socket after the
// parent link is gone, one parent at a time, and only for the same uid.

#include "eventlog.h"
#include "integrationfixture.h"
#include "parentlinkdriver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cstring>

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

const QString kFd = QStringLiteral("fd");
const QString kSocket = QStringLiteral("socket");
const QString kDriver = QStringLiteral("driver");

QJsonObject by(const QString& user, const QString& client)
{
    return {{QStringLiteral("uid"), 4242}, {QStringLiteral("user"), user}, {QStringLiteral("client"), client}};
}

QJsonObject message(const QString& type, const QJsonObject& fields = {})
{
    QJsonObject out = fields;
    out.insert(QStringLiteral("t"), type);
    return out;
}

QJsonObject decision(const QString& rid, const QString& what, const QJsonObject& who, const QString& reason = {})
{
    return message(QStringLiteral("decision"), {{QStringLiteral("rid"), rid},
                                                {QStringLiteral("decision"), what},
                                                {QStringLiteral("by"), who},
                                                {QStringLiteral("reason"), reason},
                                                {QStringLiteral("successor"), true}});
}

QList<QJsonObject> eventsOfType(const EventLog& log, const QString& type)
{
    QList<QJsonObject> out;
    for (const QJsonObject& event : log.events()) {
        if (event.value(QStringLiteral("type")).toString() == type) {
            out.append(event.value(QStringLiteral("data")).toObject());
        }
    }
    return out;
}

QString readText(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).trimmed() : QString();
}

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
}

// Connects to a Unix socket from this (the test's) process and returns the
// first line the server sends, or "connect: ERRNO".
QString connectAndRead(const QString& path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray bytes = path.toUtf8();
    std::memcpy(address.sun_path, bytes.constData(), std::min<size_t>(bytes.size(), sizeof address.sun_path - 1));
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        const QString error = QStringLiteral("connect: %1").arg(QString::fromUtf8(std::strerror(errno)));
        ::close(fd);
        return error;
    }
    timeval timeout{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    QByteArray line;
    char c;
    while (::recv(fd, &c, 1, 0) == 1 && c != '\n') {
        line.append(c);
    }
    ::close(fd);
    return QString::fromUtf8(line);
}

// What a process's fds lead to (readlink of /proc/PID/fd/*).
QStringList fdTargets(qint64 pid)
{
    QStringList targets;
    const QString dir = QStringLiteral("/proc/%1/fd").arg(pid);
    for (const QString& fd : QDir(dir).entryList(QDir::NoDotAndDotDot | QDir::System | QDir::Files)) {
        // readlink(2) itself: "socket:[N]" is not a path to resolve.
        char target[256];
        const ssize_t n = ::readlink((dir + QLatin1Char('/') + fd).toUtf8().constData(), target, sizeof target - 1);
        if (n > 0) {
            targets.append(QString::fromUtf8(target, n));
        }
    }
    return targets;
}

// The children of a process, from /proc/*/stat.
QList<qint64> childrenOf(qint64 parent)
{
    QList<qint64> children;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid) {
            continue;
        }
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == parent) {
            children.append(pid);
        }
    }
    return children;
}

}  // namespace

class SupervisorParentLink : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void helloStartedStopEnded_data();
    void helloStartedStopEnded();
    void renewOutlivesTheOriginalTtl_data();
    void renewOutlivesTheOriginalTtl();
    void signalsAreForwarded_data();
    void signalsAreForwarded();
    void requestsAreAnsweredByTheParent_data();
    void requestsAreAnsweredByTheParent();
    void embeddedAnswers503AndTakesStopOnTheSocket_data();
    void embeddedAnswers503AndTakesStopOnTheSocket();
    void aPendingRequestSurvivesReattachment_data();
    void aPendingRequestSurvivesReattachment();
    void anotherUidIsRefused_data();
    void anotherUidIsRefused();
    void moatRequestOutsideASandboxSaysSo_data();
    void moatRequestOutsideASandboxSaysSo();

private:
    QString driver() const { return fixture_.install().tool(QStringLiteral("parent-link-driver")); }
    QStringList sandboxWithMoat(const QStringList& more = {}) const
    {
        return QStringList{QStringLiteral("--ro"), fixture_.install().dir()} + more;
    }
    EventLog events(const AccountRunner& runner, const QString& session) const
    {
        return EventLog::read(runner.sessionDir(session) + QStringLiteral("/events.jsonl"));
    }

    IntegrationFixture fixture_;
};

void SupervisorParentLink::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    // The driver joins the private install, where every account can run it.
    const QString copy = driver();
    QFile::remove(copy);
    QVERIFY(QFile::copy(QStringLiteral(MOAT_PARENT_LINK_DRIVER), copy));
    QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                            QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther));
}

void SupervisorParentLink::init()
{
    fixture_.renewWorkspaces();
}

void SupervisorParentLink::cleanupTestCase()
{
    fixture_.tearDown();
}

void SupervisorParentLink::helloStartedStopEnded_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SupervisorParentLink::helloStartedStopEnded()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    ParentLinkDriver link(*runner, driver(), {QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("60")});
    QVERIFY2(link.start(), qPrintable(link.transcript()));

    const QJsonObject hello = link.waitFor(kFd, QStringLiteral("hello"));
    QVERIFY2(!hello.isEmpty(), qPrintable(link.transcript()));
    QCOMPARE(hello.value(QStringLiteral("session")).toString(), link.session());
    QCOMPARE(hello.value(QStringLiteral("reattach")).toBool(true), false);
    QCOMPARE(hello.value(QStringLiteral("embedded")).toBool(true), false);
    QCOMPARE(hello.value(QStringLiteral("pid")).toInteger(), link.supervisorPid());
    const QJsonObject started = link.waitFor(kFd, QStringLiteral("started"));
    QVERIFY2(!started.isEmpty(), qPrintable(link.transcript()));
    QVERIFY(!started.value(QStringLiteral("expires")).toString().isEmpty());
    QCOMPARE(started.value(QStringLiteral("supervisor_pid")).toInteger(), link.supervisorPid());
    QVERIFY2(!link.waitFor(kFd, QStringLiteral("events")).isEmpty(), qPrintable(link.transcript()));

    // Sandbox init (the supervisor's child, pid 1 inside) holds none of the
    // supervisor's fds that lead out: not the parent link to moatd, not the
    // re-attach socket. Only root may look into a non-dumpable process.
    if (::geteuid() == 0) {
        const QStringList supervisorFds = fdTargets(link.supervisorPid());
        const QList<qint64> children = childrenOf(link.supervisorPid());
        QCOMPARE(children.size(), 1);
        const QStringList initFds = fdTargets(children.first());
        QVERIFY(!initFds.isEmpty());
        for (const QString& target : initFds) {
            // The init channel's two ends are different sockets: a socket
            // both hold can only be one the supervisor kept for itself. The
            // spec and the record keys travel on memfds.
            const bool sharedSocket = target.startsWith(QLatin1String("socket:")) && supervisorFds.contains(target);
            QVERIFY2(!sharedSocket && !target.startsWith(QLatin1String("/memfd:")),
                     qPrintable(QStringLiteral("init holds %1; all it holds: %2; the supervisor holds %3")
                                    .arg(target, initFds.join(u' '), supervisorFds.join(u' '))));
        }
    }

    // The re-attach socket: 0600 in a 0700 directory, the account's own.
    struct stat socketInfo {};
    struct stat dirInfo {};
    QVERIFY2(::stat(link.socketPath().toUtf8().constData(), &socketInfo) == 0, qPrintable(link.socketPath()));
    QVERIFY(S_ISSOCK(socketInfo.st_mode));
    QCOMPARE(socketInfo.st_mode & 07777, 0600u);
    QCOMPARE(socketInfo.st_uid, runner->account().uid());
    QVERIFY(::stat(QFileInfo(link.socketPath()).absolutePath().toUtf8().constData(), &dirInfo) == 0);
    QCOMPARE(dirInfo.st_mode & 07777, 0700u);

    link.send(kFd, message(QStringLiteral("stop"),
                           {{QStringLiteral("by"), by(QStringLiteral("tester"), QStringLiteral("cli"))}}));
    const QJsonObject ended = link.waitFor(kFd, QStringLiteral("ended"));
    QVERIFY2(!ended.isEmpty(), qPrintable(link.transcript()));
    QCOMPARE(ended.value(QStringLiteral("state")).toString(), QStringLiteral("stopped"));
    QCOMPARE(ended.value(QStringLiteral("exit_code")).toInt(), 128 + SIGTERM);
    QCOMPARE(link.waitForExit(), 128 + SIGTERM);

    const EventLog log = events(*runner, link.session());
    const auto stops = eventsOfType(log, QStringLiteral("session.stop"));
    QCOMPARE(stops.size(), 1);
    QCOMPARE(stops.first().value(QStringLiteral("by")).toObject(), by(QStringLiteral("tester"), QStringLiteral("cli")));
    QCOMPARE(eventsOfType(log, QStringLiteral("session.end")).first().value(QStringLiteral("reason")).toString(),
             QStringLiteral("stopped"));
    const QJsonObject status = readJson(runner->sessionDir(link.session()) + QStringLiteral("/status.json"));
    QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("stopped"));
    QVERIFY2(!QFile::exists(link.socketPath()), "the socket outlived its supervisor");
}

void SupervisorParentLink::renewOutlivesTheOriginalTtl_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SupervisorParentLink::renewOutlivesTheOriginalTtl()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    ParentLinkDriver link(*runner, driver(),
                          {QStringLiteral("--ttl"), QStringLiteral("3s"), QStringLiteral("--"), QStringLiteral("sleep"),
                           QStringLiteral("60")});
    QVERIFY2(link.start(), qPrintable(link.transcript()));
    const QJsonObject started = link.waitFor(kFd, QStringLiteral("started"));
    QVERIFY2(!started.isEmpty(), qPrintable(link.transcript()));

    link.send(kFd, message(QStringLiteral("renew"),
                           {{QStringLiteral("ttl"), QStringLiteral("8s")},
                            {QStringLiteral("by"), by(QStringLiteral("renewer"), QStringLiteral("gui"))}}));
    const QJsonObject renewed = link.waitFor(kFd, QStringLiteral("renewed"));
    QVERIFY2(!renewed.isEmpty(), qPrintable(link.transcript()));
    const QString expires = renewed.value(QStringLiteral("expires")).toString();
    QVERIFY2(expires > started.value(QStringLiteral("expires")).toString(), qPrintable(link.transcript()));

    // Past the original 3 s, the session still runs.
    QTest::qWait(4500);
    QVERIFY2(!link.saw(kFd, QStringLiteral("ended")), qPrintable(link.transcript()));
    link.waitFor(kFd, QStringLiteral("ended"), 100);  // reads what came so far
    QVERIFY2(!link.saw(kFd, QStringLiteral("ended")), qPrintable(link.transcript()));
    const QJsonObject status = readJson(runner->sessionDir(link.session()) + QStringLiteral("/status.json"));
    QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("running"));
    QCOMPARE(status.value(QStringLiteral("expires")).toString(), expires);

    // A bad ttl is refused in words, and changes nothing.
    link.send(kFd, message(QStringLiteral("renew"), {{QStringLiteral("ttl"), QStringLiteral("soon")}}));
    QVERIFY2(!link.waitFor(kFd, QStringLiteral("error")).isEmpty(), qPrintable(link.transcript()));

    // Then it expires at the renewed time.
    const QJsonObject ended = link.waitFor(kFd, QStringLiteral("ended"), 15000);
    QCOMPARE(ended.value(QStringLiteral("state")).toString(), QStringLiteral("expired"));
    QVERIFY(link.waitForExit() >= 0);
    const EventLog log = events(*runner, link.session());
    const auto renewals = eventsOfType(log, QStringLiteral("ttl.renew"));
    QCOMPARE(renewals.size(), 1);
    QCOMPARE(renewals.first().value(QStringLiteral("ttl")).toString(), QStringLiteral("8s"));
    QCOMPARE(renewals.first().value(QStringLiteral("expires")).toString(), expires);
    QCOMPARE(renewals.first().value(QStringLiteral("by")).toObject().value(QStringLiteral("user")).toString(),
             QStringLiteral("renewer"));
    QCOMPARE(eventsOfType(log, QStringLiteral("ttl.expire")).size(), 1);
}

void SupervisorParentLink::signalsAreForwarded_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SupervisorParentLink::signalsAreForwarded()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString marker = runner->workspace() + QStringLiteral("/usr1");
    ParentLinkDriver link(*runner, driver(),
                          {QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                           QStringLiteral("trap 'echo caught > %1; exit 7' USR1; echo ready > %1.ready; "
                                          "while :; do sleep 0.1; done")
                               .arg(marker)});
    QVERIFY2(link.start(), qPrintable(link.transcript()));
    QVERIFY2(!link.waitFor(kFd, QStringLiteral("started")).isEmpty(), qPrintable(link.transcript()));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker + QStringLiteral(".ready")), 10000);
    link.send(kFd, message(QStringLiteral("signal"), {{QStringLiteral("signal"), SIGUSR1}}));
    const QJsonObject ended = link.waitFor(kFd, QStringLiteral("ended"));
    QVERIFY2(!ended.isEmpty(), qPrintable(link.transcript()));
    QCOMPARE(ended.value(QStringLiteral("state")).toString(), QStringLiteral("exited"));
    QCOMPARE(ended.value(QStringLiteral("exit_code")).toInt(), 7);
    QCOMPARE(readText(marker), QStringLiteral("caught"));
    QCOMPARE(link.waitForExit(), 7);
}

void SupervisorParentLink::requestsAreAnsweredByTheParent_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SupervisorParentLink::requestsAreAnsweredByTheParent()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString ws = runner->workspace();
    const QString moat = fixture_.install().moat();
    const QString script =
        QStringLiteral(
            "curl -sS -o %1/curl.json -w '%{http_code}' -X POST -H 'Content-Type: application/json' "
            "-d '{\"sudo\":true,\"reason\":\"curl asks\"}' \"$MOAT_API/v1/requests\" > %1/curl.code; "
            "%2 request --allow-host pypi.org --reason 'please deny' > %1/deny.out; echo $? > %1/deny.rc; "
            "%2 request --docker --reason 'nobody answers' > %1/timeout.out; echo $? > %1/timeout.rc; "
            "%2 request --sudo --reason 'please approve' -- make test > %1/approve.out; echo $? > %1/approve.rc")
            .arg(ws, moat);
    ParentLinkDriver link(*runner, driver(),
                          sandboxWithMoat({QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script}));
    QVERIFY2(link.start(), qPrintable(link.transcript()));

    struct Answer {
        QString reason;
        QString decision;
        QJsonObject who;
    };
    const QList<Answer> answers = {
        {QStringLiteral("curl asks"), QStringLiteral("approved"), by(QStringLiteral("alice"), QStringLiteral("gui"))},
        {QStringLiteral("please deny"), QStringLiteral("denied"), by(QStringLiteral("bob"), QStringLiteral("cli"))},
        {QStringLiteral("nobody answers"),
         QStringLiteral("timed_out"),
         {{QStringLiteral("policy"), QStringLiteral("timeout")}}},
        {QStringLiteral("please approve"),
         QStringLiteral("approved"),
         {{QStringLiteral("policy"), QStringLiteral("auto")}}},
    };
    QStringList rids;
    for (const Answer& answer : answers) {
        const QJsonObject request = link.waitFor(kFd, QStringLiteral("request"), 20000);
        QVERIFY2(!request.isEmpty(), qPrintable(link.transcript()));
        QCOMPARE(request.value(QStringLiteral("session")).toString(), link.session());
        QCOMPARE(request.value(QStringLiteral("request")).toObject().value(QStringLiteral("reason")).toString(),
                 answer.reason);
        const QString rid = request.value(QStringLiteral("rid")).toString();
        QVERIFY(rid.startsWith(QStringLiteral("r-")));
        rids.append(rid);
        // Held: the agent waits for the answer.
        QTest::qWait(300);
        link.send(kFd, decision(rid, answer.decision, answer.who, QStringLiteral("because ") + answer.decision));
    }
    const QJsonObject ended = link.waitFor(kFd, QStringLiteral("ended"), 20000);
    QVERIFY2(ended.value(QStringLiteral("exit_code")).toInt() == 0, qPrintable(link.transcript()));

    QCOMPARE(readText(ws + QStringLiteral("/curl.code")), QStringLiteral("200"));
    QCOMPARE(readJson(ws + QStringLiteral("/curl.json")).value(QStringLiteral("decision")).toString(),
             QStringLiteral("approved"));
    QCOMPARE(readText(ws + QStringLiteral("/deny.rc")), QStringLiteral("3"));
    QVERIFY2(readText(ws + QStringLiteral("/deny.out")).startsWith(QStringLiteral("denied")),
             qPrintable(readText(ws + QStringLiteral("/deny.out"))));
    QCOMPARE(readText(ws + QStringLiteral("/timeout.rc")), QStringLiteral("4"));
    QCOMPARE(readText(ws + QStringLiteral("/approve.rc")), QStringLiteral("0"));
    QVERIFY2(readText(ws + QStringLiteral("/approve.out")).startsWith(QStringLiteral("approved")),
             qPrintable(readText(ws + QStringLiteral("/approve.out"))));

    const EventLog log = events(*runner, link.session());
    QVERIFY2(log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    const auto requests = eventsOfType(log, QStringLiteral("approval.request"));
    const auto decisions = eventsOfType(log, QStringLiteral("approval.decision"));
    QCOMPARE(requests.size(), 4);
    QCOMPARE(decisions.size(), 4);
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(requests[i].value(QStringLiteral("rid")).toString(), rids[i]);
        QCOMPARE(requests[i].value(QStringLiteral("reason")).toString(), answers[i].reason);
        QCOMPARE(decisions[i].value(QStringLiteral("rid")).toString(), rids[i]);
        QCOMPARE(decisions[i].value(QStringLiteral("decision")).toString(), answers[i].decision);
        QCOMPARE(decisions[i].value(QStringLiteral("by")).toObject(), answers[i].who);
    }
    QCOMPARE(requests[3].value(QStringLiteral("command")).toArray(),
             QJsonArray({QStringLiteral("make"), QStringLiteral("test")}));
    QCOMPARE(requests[1].value(QStringLiteral("flags")).toArray(),
             QJsonArray({QStringLiteral("--allow-host"), QStringLiteral("pypi.org")}));
}

void SupervisorParentLink::embeddedAnswers503AndTakesStopOnTheSocket_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SupervisorParentLink::embeddedAnswers503AndTakesStopOnTheSocket()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString ws = runner->workspace();
    const QString script = QStringLiteral(
                               "curl -sS -o /dev/null -w '%{http_code}' -X POST -d '{\"sudo\":true}' "
                               "\"$MOAT_API/v1/requests\" > %1/curl.code; "
                               "%2 request --sudo > %1/request.out; echo $? > %1/request.rc; sleep 60")
                               .arg(ws, fixture_.install().moat());
    ParentLinkDriver link(*runner, driver(),
                          sandboxWithMoat({QStringLiteral("--embedded"), QStringLiteral("--"), QStringLiteral("sh"),
                                           QStringLiteral("-c"), script}));
    QVERIFY2(link.start(), qPrintable(link.transcript()));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(ws + QStringLiteral("/request.rc")), 20000);
    QCOMPARE(readText(ws + QStringLiteral("/curl.code")), QStringLiteral("503"));
    QCOMPARE(readText(ws + QStringLiteral("/request.rc")), QStringLiteral("3"));
    QVERIFY(readText(ws + QStringLiteral("/request.out")).contains(QStringLiteral("embedded")));

    // No parent, yet `moat stop` can reach the session on its socket.
    link.command({{QStringLiteral("connect"), true}});
    QVERIFY2(!link.waitFor(kDriver, QStringLiteral("connected")).isEmpty(), qPrintable(link.transcript()));
    const QJsonObject hello = link.waitFor(kSocket, QStringLiteral("hello"));
    QCOMPARE(hello.value(QStringLiteral("embedded")).toBool(), true);
    QCOMPARE(hello.value(QStringLiteral("reattach")).toBool(), true);
    QVERIFY2(!link.waitFor(kSocket, QStringLiteral("started")).isEmpty(), qPrintable(link.transcript()));
    link.send(kSocket, message(QStringLiteral("stop"),
                               {{QStringLiteral("by"), by(QStringLiteral("carol"), QStringLiteral("cli"))}}));
    const QJsonObject ended = link.waitFor(kSocket, QStringLiteral("ended"));
    QCOMPARE(ended.value(QStringLiteral("state")).toString(), QStringLiteral("stopped"));
    QVERIFY(link.waitForExit() >= 0);

    const EventLog log = events(*runner, link.session());
    const auto decisions = eventsOfType(log, QStringLiteral("approval.decision"));
    QCOMPARE(decisions.size(), 2);
    for (const QJsonObject& decided : decisions) {
        QCOMPARE(decided.value(QStringLiteral("by")).toObject().value(QStringLiteral("policy")).toString(),
                 QStringLiteral("embedded"));
    }
    QCOMPARE(eventsOfType(log, QStringLiteral("session.stop")).first().value(QStringLiteral("by")).toObject(),
             by(QStringLiteral("carol"), QStringLiteral("cli")));
}

void SupervisorParentLink::aPendingRequestSurvivesReattachment_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SupervisorParentLink::aPendingRequestSurvivesReattachment()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString ws = runner->workspace();
    const QString script = QStringLiteral("%2 request --sudo --reason 'across a restart' > %1/out; echo $? > %1/rc")
                               .arg(ws, fixture_.install().moat());
    ParentLinkDriver link(*runner, driver(),
                          sandboxWithMoat({QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script}));
    QVERIFY2(link.start(), qPrintable(link.transcript()));
    const QJsonObject first = link.waitFor(kFd, QStringLiteral("request"), 20000);
    QVERIFY2(!first.isEmpty(), qPrintable(link.transcript()));
    const QString rid = first.value(QStringLiteral("rid")).toString();

    // While the parent is attached, a second parent is refused.
    link.command({{QStringLiteral("connect"), true}});
    const QJsonObject refused = link.waitFor(kSocket, QStringLiteral("refused"));
    QVERIFY2(refused.value(QStringLiteral("reason")).toString().contains(QStringLiteral("another parent")),
             qPrintable(link.transcript()));
    QVERIFY(!link.saw(kSocket, QStringLiteral("hello")));

    // moatd goes away: the session runs on, the request stays pending.
    link.command({{QStringLiteral("close"), QStringLiteral("fd")}});
    QTest::qWait(500);
    QVERIFY(!QFile::exists(ws + QStringLiteral("/rc")));
    link.command({{QStringLiteral("connect"), true}});
    const QJsonObject hello = link.waitFor(kSocket, QStringLiteral("hello"));
    QVERIFY2(!hello.isEmpty(), qPrintable(link.transcript()));
    QCOMPARE(hello.value(QStringLiteral("reattach")).toBool(), true);
    QCOMPARE(hello.value(QStringLiteral("embedded")).toBool(), false);
    QVERIFY(!link.waitFor(kSocket, QStringLiteral("started")).isEmpty());
    const QJsonObject again = link.waitFor(kSocket, QStringLiteral("request"));
    QCOMPARE(again.value(QStringLiteral("rid")).toString(), rid);
    QCOMPARE(again.value(QStringLiteral("request")).toObject().value(QStringLiteral("reason")).toString(),
             QStringLiteral("across a restart"));

    link.send(kSocket, decision(rid, QStringLiteral("approved"), by(QStringLiteral("dave"), QStringLiteral("gui"))));
    const QJsonObject ended = link.waitFor(kSocket, QStringLiteral("ended"), 20000);
    QVERIFY2(!ended.isEmpty(), qPrintable(link.transcript()));
    QCOMPARE(readText(ws + QStringLiteral("/rc")), QStringLiteral("0"));
    QVERIFY(link.waitForExit() >= 0);
    const auto decisions = eventsOfType(events(*runner, link.session()), QStringLiteral("approval.decision"));
    QCOMPARE(decisions.size(), 1);
    QCOMPARE(decisions.first().value(QStringLiteral("by")).toObject().value(QStringLiteral("user")).toString(),
             QStringLiteral("dave"));
}

void SupervisorParentLink::anotherUidIsRefused_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SupervisorParentLink::anotherUidIsRefused()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (!IntegrationFixture::runningAsRoot()) {
        QSKIP("needs root: a second uid to connect from");
    }
    ParentLinkDriver link(*runner, driver(), {QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("60")});
    QVERIFY2(link.start(), qPrintable(link.transcript()));
    QVERIFY2(!link.waitFor(kFd, QStringLiteral("started")).isEmpty(), qPrintable(link.transcript()));
    link.command({{QStringLiteral("close"), QStringLiteral("fd")}});  // no parent: only the uid refuses
    QTest::qWait(300);

    if (runner->account().isRoot()) {
        // The test user cannot even reach the socket: its directory is 0700.
        const ProcessResult result = fixture_.user()->host({QStringLiteral("/usr/bin/python3"),
                                                            fixture_.install().tool(QStringLiteral("unix-socket.py")),
                                                            QStringLiteral("connect"), link.socketPath()});
        QVERIFY2(result.stdOut().contains(QStringLiteral("EACCES")), qPrintable(result.describe()));
    } else {
        // Root passes the file modes; SO_PEERCRED still says uid 0, and
        // the supervisor of the test user refuses it.
        const QString answer = connectAndRead(link.socketPath());
        const QJsonObject line = QJsonDocument::fromJson(answer.toUtf8()).object();
        QCOMPARE(line.value(QStringLiteral("t")).toString(), QStringLiteral("refused"));
        QVERIFY2(line.value(QStringLiteral("reason")).toString().contains(QStringLiteral("only uid")),
                 qPrintable(answer));
    }
    // The owner still gets in.
    link.command({{QStringLiteral("connect"), true}});
    QVERIFY2(!link.waitFor(kSocket, QStringLiteral("hello")).isEmpty(), qPrintable(link.transcript()));
    link.send(kSocket, message(QStringLiteral("stop"),
                               {{QStringLiteral("by"), by(QStringLiteral("eve"), QStringLiteral("cli"))}}));
    QVERIFY(!link.waitFor(kSocket, QStringLiteral("ended")).isEmpty());
}

void SupervisorParentLink::moatRequestOutsideASandboxSaysSo_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SupervisorParentLink::moatRequestOutsideASandboxSaysSo()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult outside = runner->moat({QStringLiteral("request"), QStringLiteral("--sudo")});
    QCOMPARE(outside.exitCode, 125);
    QVERIFY2(outside.stdErr().contains(QStringLiteral("moat request works only inside a moat sandbox")),
             qPrintable(outside.describe()));
    // Inside, without a proxy there is no endpoint to ask.
    const ProcessResult unproxied =
        runner->moatRun(sandboxWithMoat({QStringLiteral("--net"), QStringLiteral("none")}),
                        {fixture_.install().moat(), QStringLiteral("request"), QStringLiteral("--sudo")});
    QCOMPARE(unproxied.exitCode, 125);
    QVERIFY2(unproxied.stdErr().contains(QStringLiteral("no control endpoint")), qPrintable(unproxied.describe()));
}

QTEST_GUILESS_MAIN(SupervisorParentLink)
#include "tst_supervisor_parent_link.moc"
