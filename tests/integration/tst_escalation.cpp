// SPDX-License-Identifier: Apache-2.0
// Escalation end to end: an agent inside a sandbox started through moatd
// asks for a successor with one more --allow-host (curl POST to $MOAT_API,
// or `moat request` made visible read-only). The user's policy.toml (in the
// private MOAT_CONFIG_DIR) grants it on its own, or a person answers with
// `moat approve` / `moat deny`, or nobody does before the timeout. The agent
// cannot reach the host before; an approved successor reaches it through the
// proxy, and the records link the two sessions and name who decided. Real
// moat, moatd (D-Bus activation on a private bus), gnome-keyring, proxy and
// a local upstream (python3 -m http.server). As root and as an ordinary user.

#include "integrationfixture.h"
#include "loopbackport.h"
#include "moatdbus.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

QList<QJsonObject> eventsOf(AccountRunner* runner, const MoatdBus& bus, const QString& id, QString* raw)
{
    RunOptions options;
    options.environment = bus.environment();
    const ProcessResult logs = runner->moat({QStringLiteral("logs"), id, QStringLiteral("--json")}, options);
    *raw = logs.describe();
    QList<QJsonObject> events;
    for (const QByteArray& line : logs.out.split('\n')) {
        if (!line.isEmpty()) {
            events.append(QJsonDocument::fromJson(line).object());
        }
    }
    return events;
}

QJsonObject firstOfType(const QList<QJsonObject>& events, const QString& type)
{
    for (const QJsonObject& event : events) {
        if (event.value(QLatin1String("type")).toString() == type) {
            return event;
        }
    }
    return {};
}

bool writeOwned(AccountRunner* runner, const QString& path, const QByteArray& content)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size()) {
        return false;
    }
    file.close();
    return QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther) &&
           runner->account().giveOwnership(path);
}

}  // namespace

class Escalation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void anAgentsRequestIsDecided_data();
    void anAgentsRequestIsDecided();

private:
    IntegrationFixture fixture_;
    std::unique_ptr<BackgroundProcess> upstream_;
    QTemporaryDir served_;
    int port_ = 0;
    QByteArray marker_;
};

void Escalation::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    // The host the agent asks for: a local upstream the sandbox can reach
    // only through moat's proxy, and only with --allow-host 127.0.0.1:PORT.
    QVERIFY(served_.isValid());
    marker_ = "moat-escalation-marker-" + QByteArray::number(QDateTime::currentMSecsSinceEpoch());
    QFile marker(served_.filePath(QStringLiteral("marker.txt")));
    QVERIFY(marker.open(QIODevice::WriteOnly) && marker.write(marker_ + '\n') > 0);
    marker.close();
    port_ = LoopbackPort::pickFree(LoopbackPort::Protocol::Tcp);
    QVERIFY(port_ > 0);
    upstream_ = std::make_unique<BackgroundProcess>(
        QStringList{QStringLiteral("python3"), QStringLiteral("-u"), QStringLiteral("-m"), QStringLiteral("http.server"),
                    QString::number(port_), QStringLiteral("--bind"), QStringLiteral("127.0.0.1")},
        QProcessEnvironment::systemEnvironment(), served_.path());
    QVERIFY(upstream_->waitForOutput("Serving HTTP", 10000));
}

void Escalation::init()
{
    fixture_.renewWorkspaces();
}

void Escalation::cleanupTestCase()
{
    upstream_.reset();
    fixture_.tearDown();
}

void Escalation::anAgentsRequestIsDecided_data()
{
    IntegrationFixture::addAccountColumn();
    QTest::addColumn<QString>("mode");
    for (const char* account : {"root", "user"}) {
        // auto: policy.toml grants the host on its own (curl POST);
        // auto-cli: the same through `moat request` inside;
        // approve / deny: a person answers with moat approve / moat deny;
        // timeout: nobody answers before policy.toml's timeout.
        for (const char* mode : {"auto", "auto-cli", "approve", "deny", "timeout"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1:%2").arg(QLatin1String(account), QLatin1String(mode))))
                << QString::fromLatin1(account) << QString::fromLatin1(mode);
        }
    }
}

void Escalation::anAgentsRequestIsDecided()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, mode);
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    if (mode == QLatin1String("auto-cli") && !runner->moat({QStringLiteral("request"), QStringLiteral("--help")}).succeeded()) {
        QSKIP("this moat has no `moat request` (helper \"sup\")");
    }
    const QString host = QStringLiteral("127.0.0.1:%1").arg(port_);
    const QString policy =
        mode.startsWith(QLatin1String("auto"))
            ? QStringLiteral("[allow_host]\ndefault = \"ask\"\nauto = [\"%1\"]\n").arg(host)
            : QStringLiteral("timeout = \"%1\"\n[allow_host]\ndefault = \"ask\"\n")
                  .arg(mode == QLatin1String("timeout") ? QStringLiteral("3s") : QStringLiteral("90s"));
    QVERIFY(writeOwned(runner, runner->configDir() + QStringLiteral("/policy.toml"), policy.toUtf8()));

    // The agent: first shows the host is out of reach, then asks; the
    // successor it asks for fetches the marker through the proxy.
    const QString ws = runner->workspace();
    const QString fetch =
        QStringLiteral("env -u NO_PROXY -u no_proxy curl -sS -m 10 http://%1/marker.txt").arg(host);
    QVERIFY(writeOwned(runner, ws + QStringLiteral("/successor.sh"),
                       (fetch + QStringLiteral("; echo successor-done\n")).toUtf8()));
    QString ask;
    if (mode == QLatin1String("auto-cli")) {
        ask = QStringLiteral("%1 request --allow-host %2 --reason 'fetch the marker' -- sh %3/successor.sh; "
                             "echo \"REQUEST_STATUS=$?\"\n")
                  .arg(runner->install().moat(), host, ws);
    } else {
        ask = QStringLiteral("curl -sS -m 120 -X POST -H 'Content-Type: application/json' -w '\\nHTTP=%{http_code}\\n' "
                             "--data '{\"allow_hosts\":[\"%1\"],\"reason\":\"fetch the marker\","
                             "\"command\":[\"sh\",\"%2/successor.sh\"]}' \"$MOAT_API/v1/requests\"\n")
                  .arg(host, ws);
    }
    QVERIFY(writeOwned(runner, ws + QStringLiteral("/agent.sh"),
                       (QStringLiteral("env -u NO_PROXY -u no_proxy curl -s -o /dev/null -m 10 "
                                       "-w 'BEFORE=%{http_code}\\n' http://%1/marker.txt\n")
                            .arg(host) +
                        ask)
                           .toUtf8()));

    MoatdBus bus(runner);
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    const QString name = QStringLiteral("agent-%1").arg(mode);
    QStringList options = {QStringLiteral("--name"), name};
    if (mode == QLatin1String("auto-cli")) {
        options << QStringLiteral("--ro") << runner->install().dir();
    }
    auto session = bus.startSession(options, QStringLiteral("sh %1/agent.sh").arg(ws));
    QVERIFY2(session->waitForOutput("BEFORE=", 30000), session->output().constData());
    const QString first = bus.session(name).value(QLatin1String("id")).toString();
    QVERIFY(!first.isEmpty());

    RunOptions withBus;
    withBus.environment = bus.environment();
    QString rid;
    if (mode == QLatin1String("approve") || mode == QLatin1String("deny") || mode == QLatin1String("timeout")) {
        // The request waits for a person: moat approvals lists it.
        QVERIFY2(MoatdBus::waitUntil(
                     [&] {
                         const ProcessResult list =
                             runner->moat({QStringLiteral("approvals"), QStringLiteral("--json")}, withBus);
                         for (const auto& entry : QJsonDocument::fromJson(list.out).array()) {
                             if (entry.toObject().value(QLatin1String("session")).toString() == first) {
                                 rid = entry.toObject().value(QLatin1String("id")).toString();
                             }
                         }
                         return !rid.isEmpty();
                     },
                     20000),
                 session->output().constData());
        // The terminal that started the session is told, with how to answer.
        QVERIFY2(session->waitForOutput(("moat approve " + rid + " or moat deny " + rid).toUtf8(), 10000),
                 session->output().constData());
        QVERIFY2(session->output().contains("(the agent's words): \"fetch the marker\""), session->output().constData());
        const ProcessResult readable = runner->moat({QStringLiteral("approvals")}, withBus);
        QVERIFY2(readable.succeeded() && readable.stdOut().contains(rid) &&
                     readable.stdOut().contains(QLatin1String("fetch the marker")),
                 qPrintable(readable.describe()));
        if (mode != QLatin1String("timeout")) {
            const ProcessResult answer =
                runner->moat({mode == QLatin1String("approve") ? QStringLiteral("approve") : QStringLiteral("deny"),
                              rid},
                             withBus);
            QVERIFY2(answer.succeeded(), qPrintable(answer.describe()));
            // Answered once: a second answer is refused, and says so.
            const ProcessResult again = runner->moat({QStringLiteral("approve"), rid}, withBus);
            QVERIFY2(again.exitCode == 125, qPrintable(again.describe()));
        }
    }
    QVERIFY2(session->waitForOutput("EXIT=", 60000), session->output().constData());
    const QByteArray output = session->output();
    // Before any decision the host was out of reach: the proxy refused it.
    QVERIFY2(output.contains("BEFORE=403"), output.constData());

    QString raw;
    const QList<QJsonObject> firstEvents = eventsOf(runner, bus, first, &raw);
    const QJsonObject request = firstOfType(firstEvents, QStringLiteral("approval.request"));
    const QJsonObject decision = firstOfType(firstEvents, QStringLiteral("approval.decision"));
    QVERIFY2(!request.isEmpty() && !decision.isEmpty(), qPrintable(raw));
    const QJsonObject decided = decision.value(QLatin1String("data")).toObject();
    const QJsonObject by = decided.value(QLatin1String("by")).toObject();

    const bool approved = mode.startsWith(QLatin1String("auto")) || mode == QLatin1String("approve");
    if (approved) {
        QVERIFY2(output.contains(marker_) && output.contains("successor-done"), output.constData());
        QVERIFY2(output.contains("moat: session " + first.toUtf8() + " continues as "), output.constData());
        QVERIFY2(output.contains("EXIT=0"), output.constData());
        if (mode == QLatin1String("auto-cli")) {
            QVERIFY2(output.contains("REQUEST_STATUS=0"), output.constData());
        } else {
            QVERIFY2(output.contains("HTTP=200"), output.constData());
        }
        QCOMPARE(decided.value(QLatin1String("decision")).toString(), QStringLiteral("approved"));
        if (mode == QLatin1String("approve")) {
            QCOMPARE(by.value(QLatin1String("uid")).toInteger(), static_cast<qint64>(runner->account().uid()));
            QCOMPARE(by.value(QLatin1String("user")).toString(), runner->account().name());
            QCOMPARE(by.value(QLatin1String("client")).toString(), QStringLiteral("cli"));
        } else {
            QCOMPARE(by.value(QLatin1String("policy")).toString(), QStringLiteral("auto"));
        }
        // The successor: linked to its parent, with the widened flags.
        QJsonObject successor;
        const ProcessResult ps =
            runner->moat({QStringLiteral("ps"), QStringLiteral("--all"), QStringLiteral("--json")}, withBus);
        for (const auto& entry : QJsonDocument::fromJson(ps.out).array()) {
            if (entry.toObject().value(QLatin1String("parent")).toString() == first) {
                successor = entry.toObject();
            }
        }
        QVERIFY2(!successor.isEmpty(), qPrintable(ps.describe()));
        QVERIFY2(successor.value(QLatin1String("flags")).toArray().contains(QStringLiteral("allow-host:") + host),
                 qPrintable(ps.describe()));
        const QString next = successor.value(QLatin1String("id")).toString();
        QVERIFY2(output.contains("continues as " + next.toUtf8()), output.constData());
        const QList<QJsonObject> nextEvents = eventsOf(runner, bus, next, &raw);
        QVERIFY2(!firstOfType(nextEvents, QStringLiteral("net.allow")).isEmpty(), qPrintable(raw));
        const QJsonObject start = firstOfType(nextEvents, QStringLiteral("session.start"));
        const QJsonObject startData = start.value(QLatin1String("data")).toObject();
        QCOMPARE(startData.value(QLatin1String("parent")).toString(), first);
        // ...and the request that widened it, the one the parent's record decided.
        const QString decidedRid = decided.value(QLatin1String("rid")).toString();
        QVERIFY(!decidedRid.isEmpty());
        QCOMPARE(startData.value(QLatin1String("request")).toString(), decidedRid);
        QCOMPARE(request.value(QLatin1String("data")).toObject().value(QLatin1String("rid")).toString(), decidedRid);
        if (!rid.isEmpty()) {
            QCOMPARE(decidedRid, rid);  // the one `moat approvals` listed and `moat approve` answered
        }
        QVERIFY2(output.contains("(approved request " + decidedRid.toUtf8() + ")"), output.constData());
    } else {
        QVERIFY2(!output.contains(marker_) && !output.contains("continues as"), output.constData());
        if (mode == QLatin1String("deny")) {
            QVERIFY2(output.contains("HTTP=403"), output.constData());
            QCOMPARE(decided.value(QLatin1String("decision")).toString(), QStringLiteral("denied"));
            QCOMPARE(by.value(QLatin1String("uid")).toInteger(), static_cast<qint64>(runner->account().uid()));
            QCOMPARE(by.value(QLatin1String("client")).toString(), QStringLiteral("cli"));
        } else {
            QVERIFY2(output.contains("HTTP=408"), output.constData());
            QCOMPARE(decided.value(QLatin1String("decision")).toString(), QStringLiteral("timed_out"));
        }
        // No successor started.
        const ProcessResult ps =
            runner->moat({QStringLiteral("ps"), QStringLiteral("--all"), QStringLiteral("--json")}, withBus);
        QVERIFY2(!ps.out.contains(("\"parent\": \"" + first + "\"").toUtf8()), qPrintable(ps.describe()));
    }
}

QTEST_GUILESS_MAIN(Escalation)
#include "tst_escalation.moc"
