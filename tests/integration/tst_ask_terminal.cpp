// SPDX-License-Identifier: Apache-2.0
// An `ask` rule in embedded mode: the request waits while moat asks the
// person at the terminal that started the session (tests/tools/ptyrun.py is
// that terminal). "y" lets it through to the upstream; anything else, and no
// answer within --ask-timeout, refuses it with 403. The agent cannot answer
// its own question: what it writes to its terminal is output, held while the
// question is shown. Each answer is recorded with who gave it.

#include "eventlog.h"
#include "integrationfixture.h"
#include "recordingupstream.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

const QByteArray kQuestion = "allow it? [y/N]";

struct AskCase {
    QString answer;  // hex bytes typed at the question, empty for none
    QString askTimeout;
    QString agentExtra;  // shell run inside before the held request
};

}  // namespace

class AskTerminal : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void aYesAtTheTerminalLetsTheRequestThrough_data();
    void aYesAtTheTerminalLetsTheRequestThrough();
    void anyOtherAnswerRefusesIt_data();
    void anyOtherAnswerRefusesIt();
    void noAnswerInTimeRefusesIt_data();
    void noAnswerInTimeRefusesIt();

private:
    struct Outcome {
        ProcessResult run;
        QList<QJsonObject> decisions;
        int upstreamPosts = 0;
    };
    // Runs the held POST under a pty as `runner`'s account, answering with
    // `answer` (hex, empty for none) once the question shows.
    Outcome askThroughTerminal(AccountRunner* runner, const QString& answer, const QString& askTimeout,
                               const QString& agentFirst = {});
    IntegrationFixture fixture_;
};

void AskTerminal::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void AskTerminal::init()
{
    fixture_.renewWorkspaces();
}

void AskTerminal::cleanupTestCase()
{
    fixture_.tearDown();
}

AskTerminal::Outcome AskTerminal::askThroughTerminal(AccountRunner* runner, const QString& answer,
                                                    const QString& askTimeout, const QString& agentFirst)
{
    Outcome outcome;
    UpstreamPki pki(runner);
    if (!pki.ok) {
        outcome.run.err = "cannot make the test PKI";
        return outcome;
    }
    RecordingUpstream upstream(runner, pki);
    const QString a = upstream.authority();

    // Outside, nothing holds the request: it reaches the upstream at once.
    const ProcessResult outside = runner->hostShell(
        QStringLiteral("curl -sS --cacert %1 -X POST -d x -w '%{http_code}\\n' %2").arg(pki.ca, upstream.url("/deploy")));
    if (!outside.out.endsWith("200\n")) {
        outcome.run = outside;
        return outcome;
    }
    const int before = upstream.requests().size();

    const QString events = runner->newDirectory(QStringLiteral("events")) + QStringLiteral("/events.jsonl");
    const QString script = agentFirst +
                           QStringLiteral("curl -sS --noproxy '' --proxy http://127.0.0.1:3128 -X POST -d x "
                                          "-w ' status=%{http_code}\\n' ") +
                           upstream.url("/deploy");
    QStringList pty{QStringLiteral("--timeout"), QStringLiteral("40")};
    if (!answer.isEmpty()) {
        pty += {QStringLiteral("--expect"), QString::fromLatin1(kQuestion), QStringLiteral("--send"),
                QStringLiteral("0.3:") + answer};
    }
    QStringList options{QStringLiteral("--json-events"), events,       QStringLiteral("--allow-host"), a,
                        QStringLiteral("--upstream-ca"), pki.ca,       QStringLiteral("--rule"),
                        QStringLiteral("POST %1 /deploy ask").arg(a)};
    if (!askTimeout.isEmpty()) {
        options += {QStringLiteral("--ask-timeout"), askTimeout};
    }
    outcome.run = runner->underPty(pty, runner->moatRunCommand(options, {QStringLiteral("/bin/sh"),
                                                                         QStringLiteral("-c"), script}));
    const EventLog log = EventLog::read(events);
    for (const QJsonObject& event : log.events()) {
        if (event.value(QStringLiteral("type")).toString() == QStringLiteral("approval.decision")) {
            outcome.decisions.append(event.value(QStringLiteral("data")).toObject());
        }
    }
    const auto requests = upstream.requests();
    for (qsizetype i = before; i < requests.size(); ++i) {
        outcome.upstreamPosts += requests[i].value(QStringLiteral("method")).toString() == QStringLiteral("POST");
    }
    return outcome;
}

void AskTerminal::aYesAtTheTerminalLetsTheRequestThrough_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void AskTerminal::aYesAtTheTerminalLetsTheRequestThrough()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const Outcome outcome = askThroughTerminal(runner, QStringLiteral("790d"), {});  // "y" Enter
    const ProcessResult& run = outcome.run;
    QVERIFY2(run.succeeded(), qPrintable(run.describe()));
    // The question names what is asked and the rule that holds it.
    QVERIFY2(run.out.contains("moat: the agent's request POST 127.0.0.1:"), qPrintable(run.describe()));
    QVERIFY2(run.out.contains("/deploy, held by the rule 'POST 127.0.0.1:"), qPrintable(run.describe()));
    QVERIFY2(run.out.contains("no answer within 60 s is a deny"), qPrintable(run.describe()));
    QVERIFY2(run.out.contains("moat: allowed"), qPrintable(run.describe()));
    QVERIFY2(run.out.contains("upstream saw POST /deploy\r\n status=200"), qPrintable(run.describe()));
    QCOMPARE(outcome.upstreamPosts, 1);
    QCOMPARE(outcome.decisions.size(), 1);
    const QJsonObject decision = outcome.decisions.first();
    QCOMPARE(decision.value(QStringLiteral("decision")).toString(), QStringLiteral("approved"));
    QVERIFY2(decision.value(QStringLiteral("by")).toObject().contains(QStringLiteral("terminal")),
             qPrintable(QString::fromUtf8(QJsonDocument(decision).toJson())));
}

void AskTerminal::anyOtherAnswerRefusesIt_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void AskTerminal::anyOtherAnswerRefusesIt()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const Outcome outcome = askThroughTerminal(runner, QStringLiteral("6e6f0d"), {});  // "no" Enter
    const ProcessResult& run = outcome.run;
    QVERIFY2(run.succeeded(), qPrintable(run.describe()));
    QVERIFY2(run.out.contains("moat: denied (only y or yes allows)"), qPrintable(run.describe()));
    QVERIFY2(run.out.contains("status=403"), qPrintable(run.describe()));
    QCOMPARE(outcome.upstreamPosts, 0);
    QCOMPARE(outcome.decisions.size(), 1);
    QCOMPARE(outcome.decisions.first().value(QStringLiteral("decision")).toString(), QStringLiteral("denied"));
}

void AskTerminal::noAnswerInTimeRefusesIt_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void AskTerminal::noAnswerInTimeRefusesIt()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // The agent tries to answer for the user: "y" and Enter written to its
    // own terminal a moment after the question went up. That is output, not
    // the user's keystrokes: it waits behind the question and answers nothing.
    QElapsedTimer clock;
    clock.start();
    const Outcome outcome = askThroughTerminal(runner, {}, QStringLiteral("3s"),
                                               QStringLiteral("(sleep 1; printf 'y\\r\\n' > /dev/tty) & "));
    const ProcessResult& run = outcome.run;
    QVERIFY2(run.succeeded(), qPrintable(run.describe()));
    QVERIFY2(run.out.contains("no answer within 3 s is a deny"), qPrintable(run.describe()));
    QVERIFY2(run.out.contains("moat: no answer in time: denied"), qPrintable(run.describe()));
    QVERIFY2(run.out.contains("status=403"), qPrintable(run.describe()));
    QVERIFY2(!run.out.contains("moat: allowed"), qPrintable(run.describe()));
    QVERIFY2(clock.elapsed() >= 3000, qPrintable(run.describe()));
    QCOMPARE(outcome.upstreamPosts, 0);
    QCOMPARE(outcome.decisions.size(), 1);
    QCOMPARE(outcome.decisions.first().value(QStringLiteral("decision")).toString(), QStringLiteral("timed_out"));
}

QTEST_GUILESS_MAIN(AskTerminal)
#include "tst_ask_terminal.moc"
