// SPDX-License-Identifier: Apache-2.0
// Push rules end to end, as root and as an ordinary user: a real `git push`
// from inside a sandbox started through moatd, to a smart-HTTP git server on
// the host's loopback (tests/integration/git_https_server.py: the real
// `git http-backend` behind TLS with a test CA). With
//   push A repo refs/heads/main ask
//   push A repo refs/heads/** allow
// a push to a feature branch lands at once, while a push to main is held
// until a person answers through moatd: `moat approve h-...` and the push
// lands, `moat deny h-...` and git push fails with main unchanged on the
// server. Outside the sandbox nothing holds it: a push to main simply lands.
// The session's records name the held refs and who decided.
//
// A push larger than git's http.postBuffer is sent after a probe (the
// flush-pkt alone), which moat forwards; the push itself is still refused
// (413: the proxy reads at most 1 MiB of a push to find its refs), an
// expected failure here until that is fixed.

#include "eventlog.h"
#include "integrationfixture.h"
#include "moatdbus.h"
#include "subprocess.h"
#include "testcertificates.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

namespace {

// Runs a shell script as the test process itself (the server's owner).
ProcessResult ownShell(const QString& script)
{
    Subprocess::Request request;
    request.argv = {QStringLiteral("/bin/sh"), QStringLiteral("-c"), script};
    request.environment = QProcessEnvironment::systemEnvironment();
    return Subprocess::run(request);
}

// The git server: one bare repository, repo.git, whose main holds one
// commit, served over HTTPS by the test process on a free loopback port.
struct GitServer {
    QTemporaryDir root{QStringLiteral("/tmp/moat-it-git-XXXXXX")};
    std::unique_ptr<BackgroundProcess> process;
    int port = 0;
    QString error;

    explicit GitServer(const TestCertificates& pki)
    {
        const QString repo = root.filePath(QStringLiteral("repo.git"));
        const ProcessResult made = ownShell(
            QStringLiteral("set -e; git init -q --bare -b main '%1'; git -C '%1' config http.receivepack true; "
                           "tree=$(git -C '%1' mktree </dev/null); "
                           "commit=$(git -C '%1' -c user.name=test -c user.email=test@moat.invalid "
                           "commit-tree -m initial \"$tree\"); git -C '%1' update-ref refs/heads/main \"$commit\"")
                .arg(repo));
        if (!made.succeeded()) {
            error = made.describe();
            return;
        }
        process = std::make_unique<BackgroundProcess>(
            QStringList{QStringLiteral("python3"), QStringLiteral(MOAT_GIT_HTTPS_SERVER), pki.certificateFile(),
                        pki.keyFile(), root.path()},
            QProcessEnvironment::systemEnvironment(), root.path());
        if (!process->waitForOutput("port ")) {
            error = QString::fromUtf8(process->output());
            return;
        }
        const QByteArray out = process->output();
        const int at = out.indexOf("port ");
        port = out.mid(at + 5, out.indexOf('\n', at) - at - 5).trimmed().toInt();
    }

    QString authority() const { return QStringLiteral("127.0.0.1:%1").arg(port); }
    QString url() const { return QStringLiteral("https://%1/repo.git").arg(authority()); }
    // The commit a ref of the served repository points at ("" when none).
    QString commitOf(const QString& ref) const
    {
        const ProcessResult parsed = ownShell(QStringLiteral("git -C '%1' rev-parse --verify -q '%2'")
                                                  .arg(root.filePath(QStringLiteral("repo.git")), ref));
        return parsed.succeeded() ? parsed.stdOut().trimmed() : QString();
    }
    // The request bodies of the pushes that reached the server, in order
    // (git's probe of a large push is 4 bytes: "0000").
    QList<qint64> pushBodies()
    {
        process->waitForOutput("\x01no such marker", 300);  // take in what it printed so far
        QList<qint64> sizes;
        for (const QByteArray& line : process->output().split('\n')) {
            const QList<QByteArray> words = line.split(' ');
            if (words.size() == 5 && words[0] == "request" && words[1] == "POST" &&
                words[2].endsWith("/git-receive-pack")) {
                sizes.append(words[4].toLongLong());
            }
        }
        return sizes;
    }
};

// A value the agent's script printed as "NAME=value".
QString printed(const QByteArray& output, const QString& name)
{
    const QRegularExpression line(QStringLiteral("^%1=(\\S*)$").arg(name), QRegularExpression::MultilineOption);
    return line.match(QString::fromUtf8(output)).captured(1);
}

// The entry of `moat approvals --json` for session `id`, or an empty object.
QJsonObject heldFor(AccountRunner* runner, const RunOptions& withBus, const QString& id)
{
    const ProcessResult list = runner->moat({QStringLiteral("approvals"), QStringLiteral("--json")}, withBus);
    const QJsonArray pending = QJsonDocument::fromJson(list.out).array();
    const auto found = std::find_if(pending.begin(), pending.end(), [&](const QJsonValue& entry) {
        return entry.toObject().value(QLatin1String("session")).toString() == id;
    });
    return found == pending.end() ? QJsonObject() : found->toObject();
}

// What the client received, from a GIT_TRACE_CURL file: its data lines
// ("<= Recv data: " and up to 60 bytes each) joined, without the prefixes.
QByteArray receivedData(const QString& traceFile)
{
    QFile trace(traceFile);
    if (!trace.open(QIODevice::ReadOnly)) {
        return {};
    }
    static const QRegularExpression data(QStringLiteral("<= Recv data: (.*)$"));
    QByteArray received;
    for (const QByteArray& line : trace.readAll().split('\n')) {
        const auto match = data.match(QString::fromUtf8(line));
        if (match.hasMatch()) {
            received += match.captured(1).toUtf8();
        }
    }
    return received;
}

// The agent: clones through moat's proxy (NO_PROXY names 127.0.0.1, which
// the server is, so the proxy is named on purpose); pushes a feature branch;
// pushes a branch larger than git's http.postBuffer (1 MiB), which git sends
// after a probe, in chunks; then, from the feature branch, pushes a commit to
// main with git's view of the HTTP exchange traced to main-push.trace.
QString agentScript(const QString& url)
{
    return QStringLiteral(
               "unset NO_PROXY no_proxy\n"
               "g() { git -c http.proxy=http://127.0.0.1:3128 -c user.name=agent -c user.email=agent@moat.invalid "
               "\"$@\"; }\n"
               "g clone -q %1 repo 2>&1; echo \"CLONE=$?\"\n"
               "cd repo || exit 9\n"
               "head -c 200000 /dev/urandom > small.bin && g add small.bin && g commit -q -m feature\n"
               "echo \"AGENT_FEATURE=$(g rev-parse HEAD)\"\n"
               "g push -q origin HEAD:refs/heads/feature 2>&1; echo \"FEATURE=$?\"\n"
               "head -c 3000000 /dev/urandom > large.bin && g add large.bin && g commit -q -m large\n"
               "g push -q origin HEAD:refs/heads/large 2>&1; echo \"LARGE=$?\"\n"
               "g reset -q --hard HEAD~1\n"
               "g commit -q --allow-empty -m 'for main'; echo \"AGENT_MAIN=$(g rev-parse HEAD)\"\n"
               "echo PUSHING-MAIN\n"
               "GIT_TRACE_CURL=\"$PWD/../main-push.trace\" g push -q origin HEAD:refs/heads/main 2>&1; "
               "echo \"MAIN=$?\"\n")
        .arg(url);
}

}  // namespace

class PushApproval : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void aPushToMainWaitsAndLandsWhenApproved_data();
    void aPushToMainWaitsAndLandsWhenApproved();
    void aPushToMainWaitsAndFailsWhenDenied_data();
    void aPushToMainWaitsAndFailsWhenDenied();

private:
    void pushToMain(AccountRunner* runner, const QString& answer);

    IntegrationFixture fixture_;
    TestCertificates pki_;
};

void PushApproval::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    if (!TestCertificates::available()) {
        QSKIP("no openssl command: the test's git server needs a certificate");
    }
    QVERIFY2(pki_.create(&error), qPrintable(error));
}

void PushApproval::init()
{
    fixture_.renewWorkspaces();
}

void PushApproval::cleanupTestCase()
{
    fixture_.tearDown();
}

void PushApproval::aPushToMainWaitsAndLandsWhenApproved_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void PushApproval::aPushToMainWaitsAndLandsWhenApproved()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    pushToMain(runner, QStringLiteral("approve"));
}

void PushApproval::aPushToMainWaitsAndFailsWhenDenied_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void PushApproval::aPushToMainWaitsAndFailsWhenDenied()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    pushToMain(runner, QStringLiteral("deny"));
}

// `answer`: what the person says, "approve" or "deny" (moat's verb for it).
void PushApproval::pushToMain(AccountRunner* runner, const QString& answer)
{
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    GitServer server(pki_);
    QVERIFY2(server.port > 0, qPrintable(server.error));
    const QString a = server.authority();

    // Outside, nothing stands in the way: the account's push to main lands.
    const QString outside = runner->newDirectory(QStringLiteral("outside"));
    const ProcessResult pushed = runner->hostShell(
        QStringLiteral("set -e; export GIT_SSL_CAINFO='%1'; git clone -q %2 '%3/repo'; cd '%3/repo'; "
                       "git -c user.name=host -c user.email=host@moat.invalid commit -q --allow-empty -m outside; "
                       "git push -q origin HEAD:refs/heads/main; git rev-parse HEAD")
            .arg(pki_.caFile(), server.url(), outside));
    QVERIFY2(pushed.succeeded(), qPrintable(pushed.describe()));
    const QString mainBefore = pushed.stdOut().trimmed();
    QCOMPARE(server.commitOf(QStringLiteral("refs/heads/main")), mainBefore);
    const qsizetype pushesOutside = server.pushBodies().size();

    // Inside, through moatd, with the push rules.
    MoatdBus bus(runner);
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    RunOptions withBus;
    withBus.environment = bus.environment();
    const QString name = QStringLiteral("push-") + answer;
    const QString askRule = QStringLiteral("push %1 repo refs/heads/main ask").arg(a);
    auto session = bus.startSession({QStringLiteral("--name"), name, QStringLiteral("--allow-host"), a,
                                     QStringLiteral("--upstream-ca"), pki_.caFile(), QStringLiteral("--rule"), askRule,
                                     QStringLiteral("--rule"), QStringLiteral("push %1 repo refs/heads/** allow").arg(a),
                                     QStringLiteral("--rule"), QStringLiteral("* %1 /repo.git/** allow").arg(a)},
                                    agentScript(server.url()));

    // The feature branch lands at once.
    QVERIFY2(session->waitForOutput("PUSHING-MAIN", 60000), session->output().constData());
    QByteArray output = session->output();
    QVERIFY2(output.contains("CLONE=0\n") && output.contains("FEATURE=0\n"), output.constData());
    const QString agentFeature = printed(output, QStringLiteral("AGENT_FEATURE"));
    const QString agentMain = printed(output, QStringLiteral("AGENT_MAIN"));
    QVERIFY2(agentFeature.size() == 40 && agentMain.size() == 40, output.constData());
    QCOMPARE(server.commitOf(QStringLiteral("refs/heads/feature")), agentFeature);
    const QList<qint64> bodies = server.pushBodies();
    QVERIFY2(bodies.size() >= pushesOutside + 1 && bodies[pushesOutside] > 200000, server.process->output().constData());
    // The large branch (over 1 MiB, the most the proxy reads of a body):
    // git's probe (the flush-pkt alone, naming no ref) passes, then the push
    // itself, chunked: the proxy reads only its ref updates and streams the
    // pack on.
    QVERIFY2(bodies.size() >= pushesOutside + 2 && bodies[pushesOutside + 1] == 4, server.process->output().constData());
    QVERIFY2(output.contains("\nLARGE=0\n") && !server.commitOf(QStringLiteral("refs/heads/large")).isEmpty(),
             output.constData());

    // The push to main waits for a person: moat approvals lists it, naming the ref.
    const QString id = bus.session(name).value(QLatin1String("id")).toString();
    QVERIFY(!id.isEmpty());
    QJsonObject held;
    QVERIFY2(MoatdBus::waitUntil(
                 [&] {
                     held = heldFor(runner, withBus, id);
                     return !held.isEmpty();
                 },
                 20000),
             session->output().constData());
    const QString rid = held.value(QLatin1String("id")).toString();
    QVERIFY2(rid.startsWith(QLatin1String("h-")), qPrintable(QJsonDocument(held).toJson()));
    QCOMPARE(held.value(QLatin1String("kind")).toString(), QStringLiteral("http"));
    const QJsonObject http = held.value(QLatin1String("http")).toObject();
    QCOMPARE(http.value(QLatin1String("method")).toString(), QStringLiteral("POST"));
    QCOMPARE(http.value(QLatin1String("path")).toString(), QStringLiteral("/repo.git/git-receive-pack"));
    QCOMPARE(http.value(QLatin1String("rule")).toString(), askRule);
    QCOMPARE(http.value(QLatin1String("refs")).toArray(), QJsonArray{QStringLiteral("refs/heads/main")});
    // Held means held: nothing of it reached the server, main has not moved.
    QVERIFY(!session->output().contains("\nMAIN="));
    const qsizetype pushesBefore = server.pushBodies().size();
    QCOMPARE(server.commitOf(QStringLiteral("refs/heads/main")), mainBefore);

    const ProcessResult answered = runner->moat({answer, rid}, withBus);
    QVERIFY2(answered.succeeded(), qPrintable(answered.describe()));
    QVERIFY2(session->waitForOutput("EXIT=", 60000), session->output().constData());
    output = session->output();
    QVERIFY2(output.contains("EXIT=0"), output.constData());
    const bool approved = answer == QLatin1String("approve");
    const QByteArray received = receivedData(runner->workspace() + QStringLiteral("/main-push.trace"));
    if (approved) {
        QVERIFY2(output.contains("\nMAIN=0\n"), output.constData());
        QCOMPARE(server.commitOf(QStringLiteral("refs/heads/main")), agentMain);
        QCOMPARE(server.pushBodies().size(), pushesBefore + 1);
    } else {
        // git push fails on moat's 403, whose body says why; the server
        // never saw the push and its main is where the host left it.
        QVERIFY2(output.contains("\nMAIN=1\n") && output.contains("403"), output.constData());
        QVERIFY2(received.contains(("the push was not approved (denied, " + rid + ")").toUtf8()), received.constData());
        QCOMPARE(server.pushBodies().size(), pushesBefore);
        QCOMPARE(server.commitOf(QStringLiteral("refs/heads/main")), mainBefore);
    }
    QVERIFY(pushesBefore > pushesOutside);

    // The records (chained, as moat wrote them): the held push and who answered it.
    const EventLog log = EventLog::read(runner->sessionDir(id) + QStringLiteral("/events.jsonl"));
    QVERIFY2(log.isReadable() && log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    const QString raw = log.types().join(QLatin1Char(' '));
    const QList<QJsonObject>& events = log.events();
    const QJsonObject request = log.first(QStringLiteral("approval.request")).value(QLatin1String("data")).toObject();
    const QJsonObject decision = log.first(QStringLiteral("approval.decision")).value(QLatin1String("data")).toObject();
    QVERIFY2(!request.isEmpty() && !decision.isEmpty(), qPrintable(raw));
    QCOMPARE(request.value(QLatin1String("rid")).toString(), rid);
    QCOMPARE(request.value(QLatin1String("kind")).toString(), QStringLiteral("http"));
    QCOMPARE(request.value(QLatin1String("http")).toObject().value(QLatin1String("refs")).toArray(),
             QJsonArray{QStringLiteral("refs/heads/main")});
    QCOMPARE(decision.value(QLatin1String("rid")).toString(), rid);
    QCOMPARE(decision.value(QLatin1String("decision")).toString(),
             approved ? QStringLiteral("approved") : QStringLiteral("denied"));
    const QJsonObject by = decision.value(QLatin1String("by")).toObject();
    QCOMPARE(by.value(QLatin1String("uid")).toInteger(), static_cast<qint64>(runner->account().uid()));
    QCOMPARE(by.value(QLatin1String("user")).toString(), runner->account().name());
    QCOMPARE(by.value(QLatin1String("client")).toString(), QStringLiteral("cli"));
    // ...and the request's own record says it went out, or not, by that answer.
    const QString outcome = approved ? askRule + QStringLiteral(" (approved, ") + rid + QLatin1Char(')')
                                     : QStringLiteral("the push was not approved (denied, ") + rid + QLatin1Char(')');
    bool recorded = false;
    for (const QJsonObject& event : events) {
        const QJsonObject data = event.value(QLatin1String("data")).toObject();
        recorded = recorded || (approved ? event.value(QLatin1String("type")).toString() == QLatin1String("net.allow") &&
                                               data.value(QLatin1String("rule")).toString() == outcome
                                         : event.value(QLatin1String("type")).toString() == QLatin1String("net.deny") &&
                                               data.value(QLatin1String("reason")).toString().startsWith(outcome));
    }
    QVERIFY2(recorded, qPrintable(raw));
}

QTEST_GUILESS_MAIN(PushApproval)
#include "tst_push_approval.moc"
