// SPDX-License-Identifier: Apache-2.0
// --rule, --secret and --upstream-ca through a real `moat run`, as root and
// as an ordinary user: a TLS upstream on the host's loopback (python3, with a
// test CA of its own) seen through moat's interception. The sandbox trusts
// the session CA and nothing else new; a host with rules answers only what a
// rule allows; a secret's value reaches the upstream in its bound header
// while the sandbox only ever holds a placeholder, and a placeholder sent
// anywhere else is refused and recorded.

#include "eventlog.h"
#include "integrationfixture.h"
#include "moatdbus.h"
#include "recordingupstream.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <unistd.h>

namespace {

// curl inside through moat's proxy; NO_PROXY names 127.0.0.1, which the
// test's upstream is, so the proxy is named on purpose.
QString curl(const QString& arguments)
{
    return QStringLiteral("curl -sS --noproxy '' --proxy http://127.0.0.1:3128 -w '%{http_code}\\n' ") + arguments;
}

}  // namespace

class Interception : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void rulesDecideWhatReachesAnInterceptedHost_data();
    void rulesDecideWhatReachesAnInterceptedHost();
    void theGithubReadonlyProfileHoldsAgainstRawCurl_data();
    void theGithubReadonlyProfileHoldsAgainstRawCurl();
    void theSandboxTrustsTheSessionCaOnly_data();
    void theSandboxTrustsTheSessionCaOnly();
    void anUpstreamThatDoesNotVerifyIsRefused_data();
    void anUpstreamThatDoesNotVerifyIsRefused();
    void aSecretReachesOnlyItsHostAndNeverTheSandbox_data();
    void aSecretReachesOnlyItsHostAndNeverTheSandbox();

private:
    IntegrationFixture fixture_;
};

void Interception::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void Interception::init()
{
    fixture_.renewWorkspaces();
}

void Interception::cleanupTestCase()
{
    fixture_.tearDown();
}

void Interception::rulesDecideWhatReachesAnInterceptedHost_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Interception::rulesDecideWhatReachesAnInterceptedHost()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    UpstreamPki pki(runner);
    QVERIFY(pki.ok);
    RecordingUpstream upstream(runner, pki);
    QVERIFY(upstream.port() > 0);

    // Outside, nothing stands in the way: every request reaches the upstream.
    const ProcessResult outside = runner->hostShell(
        QStringLiteral("curl -sS --cacert %1 -X POST -w '%{http_code}\\n' %2").arg(pki.ca, upstream.url("/repos/o/r/issues")));
    QVERIFY2(outside.out.endsWith("200\n"), qPrintable(outside.describe()));
    const int before = upstream.requests().size();

    const QString a = upstream.authority();
    const QString script = curl(upstream.url("/repos/o/r/issues")) + "; " + curl(upstream.url("/repos/o/other")) +
                           "; " + curl("-X POST " + upstream.url("/repos/o/r/issues")) + "; " +
                           curl("-X POST " + upstream.url("/repos/o/r/issues/1/comments"));
    const ProcessResult inside = runner->moatShell(
        {QStringLiteral("--allow-host"), a, QStringLiteral("--upstream-ca"), pki.ca, QStringLiteral("--rule"),
         QStringLiteral("GET %1 /repos/o/r/** allow").arg(a), QStringLiteral("--rule"),
         QStringLiteral("POST %1 /repos/o/r/issues/*/comments ask").arg(a)},
        script);
    QVERIFY2(inside.exitCode == 0, qPrintable(inside.describe()));
    const QList<QByteArray> lines = inside.out.split('\n');
    QVERIFY2(inside.out.startsWith("upstream saw GET /repos/o/r/issues\n200\n"), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("no rule allows GET"), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("no rule allows POST"), qPrintable(inside.describe()));
    // An ask with nobody to answer (embedded, no terminal): a deny at once, recorded.
    QVERIFY2(inside.out.contains("was not approved (denied, h-"), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("nobody can answer"), qPrintable(inside.describe()));
    QCOMPARE(inside.out.count("403\n"), 3);
    // Only the allowed GET reached the upstream.
    const auto requests = upstream.requests();
    QVERIFY2(requests.size() == before + 1, upstream.output().constData());
    QCOMPARE(requests.last().value(QStringLiteral("path")).toString(), QStringLiteral("/repos/o/r/issues"));
}

void Interception::theGithubReadonlyProfileHoldsAgainstRawCurl_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Interception::theGithubReadonlyProfileHoldsAgainstRawCurl()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    UpstreamPki pki(runner);
    QVERIFY(pki.ok);
    RecordingUpstream upstream(runner, pki);
    QVERIFY(upstream.port() > 0);
    // The shipped profile, line for line, with api.github.com replaced by
    // the test's upstream (a user profile of the same rules).
    QFile shipped(QStringLiteral(MOAT_SHIPPED_PROFILES "/github-readonly.toml"));
    QVERIFY(shipped.open(QIODevice::ReadOnly));
    QByteArray profile = shipped.readAll();
    QVERIFY(profile.count("api.github.com") >= 4);
    profile.replace("api.github.com", upstream.authority().toUtf8());
    const ProcessResult written = runner->hostShell(
        QStringLiteral("mkdir -p '%1/profiles' && base64 -d > '%1/profiles/gh-local.toml'").arg(runner->configDir()),
        RunOptions{profile.toBase64(), true, {}, {}, 10000});
    QVERIFY2(written.succeeded(), qPrintable(written.describe()));

    // What `gh api` sends, and what an agent that skips gh sends with curl:
    // reads of the repository, then writes, another repository and GraphQL.
    const QStringList requests = {
        QStringLiteral("GET /repos/o/r"),
        QStringLiteral("GET /repos/o/r/issues?state=all"),
        QStringLiteral("GET /repos/o/r/issues/1/comments"),
        QStringLiteral("GET /repos/o/r/pulls/2/files"),
        QStringLiteral("POST /repos/o/r/issues/1/comments"),
        QStringLiteral("PATCH /repos/o/r/issues/1"),
        QStringLiteral("DELETE /repos/o/r/issues/comments/5"),
        QStringLiteral("PUT /repos/o/r/pulls/2/merge"),
        QStringLiteral("POST /repos/o/r/issues"),
        QStringLiteral("GET /repos/o/other/issues"),
        QStringLiteral("POST /graphql"),
    };
    QString outsideScript, insideScript;
    for (const QString& request : requests) {
        const QString method = request.section(QLatin1Char(' '), 0, 0);
        const QString url = upstream.url(request.section(QLatin1Char(' '), 1));
        const QString body = method == QStringLiteral("GET") ? QString() : QStringLiteral("-d '{\"body\":\"x\"}' ");
        outsideScript += QStringLiteral("curl -sS -o /dev/null --cacert %1 -X %2 %3-w '%{http_code}\\n' '%4'; ")
                             .arg(pki.ca, method, body, url);
        insideScript += curl(QStringLiteral("-o /dev/null -X %1 %2'%3'").arg(method, body, url)) + "; ";
    }
    const ProcessResult outside = runner->hostShell(outsideScript);
    QVERIFY2(outside.succeeded(), qPrintable(outside.describe()));
    QCOMPARE(outside.out, QByteArray("200\n").repeated(requests.size()));
    const int before = upstream.requests().size();

    const ProcessResult inside = runner->moatShell(
        {QStringLiteral("--upstream-ca"), pki.ca, QStringLiteral("--profile"), QStringLiteral("gh-local=o/r")},
        insideScript);
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QCOMPARE(inside.out, QByteArray("200\n200\n200\n200\n") + QByteArray("403\n").repeated(requests.size() - 4));
    // Only the four reads reached the upstream.
    const auto seen = upstream.requests();
    QCOMPARE(seen.size(), before + 4);
    for (qsizetype i = before; i < seen.size(); ++i) {
        QCOMPARE(seen[i].value(QStringLiteral("method")).toString(), QStringLiteral("GET"));
        QVERIFY(seen[i].value(QStringLiteral("path")).toString().startsWith(QStringLiteral("/repos/o/r")));
    }
}

void Interception::theSandboxTrustsTheSessionCaOnly_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Interception::theSandboxTrustsTheSessionCaOnly()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    UpstreamPki pki(runner);
    QVERIFY(pki.ok);
    RecordingUpstream upstream(runner, pki);
    const QString a = upstream.authority();
    const ProcessResult host = runner->hostShell(QStringLiteral("grep -c BEGIN /etc/ssl/certs/ca-certificates.crt"));
    QVERIFY(host.succeeded());
    const int hostCount = host.out.trimmed().toInt();

    // With a rule, the system bundle holds one more certificate: the
    // session's CA, whose key is nowhere in the sandbox.
    const ProcessResult inside = runner->moatShell(
        {QStringLiteral("--allow-host"), a, QStringLiteral("--upstream-ca"), pki.ca, QStringLiteral("--rule"),
         QStringLiteral("GET %1 /** allow").arg(a)},
        QStringLiteral("grep -c BEGIN /etc/ssl/certs/ca-certificates.crt; "
                       "openssl x509 -noout -subject -in \"$SSL_CERT_FILE\"; echo \"$NODE_EXTRA_CA_CERTS\"; "
                       "grep -rl 'PRIVATE KEY' /etc/moat /etc/ssl 2>/dev/null | wc -l; ") +
            curl(upstream.url("/ok")));
    QVERIFY2(inside.exitCode == 0, qPrintable(inside.describe()));
    const QList<QByteArray> lines = inside.out.split('\n');
    QCOMPARE(lines.value(0).toInt(), hostCount + 1);
    QVERIFY2(lines.value(2) == "/etc/moat/session-ca.pem", qPrintable(inside.describe()));
    QCOMPARE(lines.value(3).trimmed(), QByteArray("0"));
    QVERIFY2(inside.out.contains("upstream saw GET /ok\n200\n"), qPrintable(inside.describe()));

    // Without interception the sandbox trusts exactly what the host does.
    const ProcessResult plain = runner->moatShell({}, QStringLiteral("grep -c BEGIN /etc/ssl/certs/ca-certificates.crt; "
                                                                     "test -e /etc/moat && echo has-moat-trust || true"));
    QVERIFY2(plain.succeeded(), qPrintable(plain.describe()));
    QCOMPARE(plain.out, QByteArray::number(hostCount) + "\n");
}

void Interception::anUpstreamThatDoesNotVerifyIsRefused_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Interception::anUpstreamThatDoesNotVerifyIsRefused()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    UpstreamPki pki(runner);
    QVERIFY(pki.ok);
    RecordingUpstream upstream(runner, pki);
    const QString a = upstream.authority();
    // No --upstream-ca: the test CA is not in the host's store.
    const ProcessResult inside = runner->moatShell(
        {QStringLiteral("--allow-host"), a, QStringLiteral("--rule"), QStringLiteral("GET %1 /** allow").arg(a)},
        curl(upstream.url("/ok")));
    QVERIFY2(inside.exitCode == 0, qPrintable(inside.describe()));
    QVERIFY2(inside.out.endsWith("502\n"), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("did not verify"), qPrintable(inside.describe()));
    QVERIFY(upstream.requests().isEmpty());
}

void Interception::aSecretReachesOnlyItsHostAndNeverTheSandbox_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Interception::aSecretReachesOnlyItsHostAndNeverTheSandbox()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    UpstreamPki pki(runner);
    QVERIFY(pki.ok);
    RecordingUpstream upstream(runner, pki);
    const QString a = upstream.authority();
    MoatdBus bus(runner);
    bus.setMoatdActivatable(false);  // embedded: moat fetches the value itself
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    RunOptions withBus;
    withBus.environment = bus.environment();
    const QByteArray value = "real-token-" + QByteArray::number(::getpid()) + "-Xk29q";
    RunOptions setting = withBus;
    setting.input = value;
    setting.feedInput = true;
    const ProcessResult set = runner->moat({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("TOKEN"),
                                            QStringLiteral("--host"), a},
                                           setting);
    QVERIFY2(set.succeeded(), qPrintable(set.describe()));

    const QString eventsFile = runner->newDirectory(QStringLiteral("events")) + QStringLiteral("/events.jsonl");
    const QString script =
        QStringLiteral("echo \"token=$GH\"; ") + curl("-H \"Authorization: Bearer $GH\" " + upstream.url("/api")) +
        "; " + curl("-H \"X-Debug: $GH\" " + upstream.url("/api")) + "; " +
        QStringLiteral("cat /proc/*/environ > environ.dump 2>/dev/null; echo dumped");
    const ProcessResult inside = runner->moatShell(
        {QStringLiteral("--embedded"), QStringLiteral("--json-events"), eventsFile, QStringLiteral("--allow-host"), a,
         QStringLiteral("--upstream-ca"), pki.ca, QStringLiteral("--secret"), QStringLiteral("TOKEN=GH")},
        script, withBus);
    QVERIFY2(inside.exitCode == 0, qPrintable(inside.describe()));
    // The sandbox holds a placeholder, never the value.
    QVERIFY2(inside.out.startsWith("token=moat-placeholder-TOKEN-"), qPrintable(inside.describe()));
    QVERIFY2(!inside.out.contains(value) && !inside.err.contains(value), qPrintable(inside.describe()));
    // In no process's environment (read outside: the value must not be in
    // the script, whose argv is recorded).
    QVERIFY2(inside.out.endsWith("dumped\n"), qPrintable(inside.describe()));
    QFile dump(runner->workspace() + QStringLiteral("/environ.dump"));
    QVERIFY(dump.open(QIODevice::ReadOnly));
    const QByteArray environments = dump.readAll();
    QVERIFY(environments.contains("GH=moat-placeholder-TOKEN-"));
    QVERIFY2(!environments.contains(value), "the value is in an environment inside");
    // The upstream got the value in the bound header, once.
    const auto requests = upstream.requests();
    QCOMPARE(requests.size(), 1);
    QVERIFY2(QJsonDocument(requests[0]).toJson().contains("Bearer " + value), qPrintable(QJsonDocument(requests[0]).toJson()));
    // The placeholder in another header: refused, recorded by name.
    QVERIFY2(inside.out.contains("403\n"), qPrintable(inside.describe()));
    const EventLog log = EventLog::read(eventsFile);
    int uses = 0, leaks = 0;
    for (const QJsonObject& event : log.events()) {
        const QString type = event.value(QStringLiteral("type")).toString();
        uses += type == QStringLiteral("secret.use");
        leaks += type == QStringLiteral("secret.leak_attempt");
    }
    QCOMPARE(uses, 1);
    QCOMPARE(leaks, 1);
    QFile file(eventsFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY2(!file.readAll().contains(value), "the value is in the session's events");
}

QTEST_GUILESS_MAIN(Interception)
#include "tst_interception.moc"
