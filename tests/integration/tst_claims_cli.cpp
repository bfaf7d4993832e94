// SPDX-License-Identifier: Apache-2.0
// `moat claims` as a user runs it: the built binary, as root and as an
// ordinary account, prints every area's claims with the check that verifies
// each, in the JSON shape docs/claims.md fixes and as terminal-safe text; and
// each of those checks passes in `moat probe` inside a fresh default sandbox.
#include "integrationfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

class ClaimsCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    }
    void init() { fixture_.renewWorkspaces(); }
    void cleanupTestCase() { fixture_.tearDown(); }

    void jsonNamesACheckForEveryClaim_data()
    {
        IntegrationFixture::addAccountColumn();
        IntegrationFixture::addAccountRows();
    }
    void jsonNamesACheckForEveryClaim()
    {
        MOAT_FETCH_RUNNER(fixture_, runner);
        const ProcessResult result = runner->moat({QStringLiteral("claims"), QStringLiteral("--json")});
        QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));
        // The keys' order is part of the contract.
        QVERIFY2(result.out.startsWith("{\"moat_version\":\""), result.out.left(80).constData());

        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(result.out, &parseError);
        QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(parseError.errorString()));
        const QJsonObject report = document.object();
        QCOMPARE(report.value("sandbox").toString(), QStringLiteral("default"));
        const QJsonObject kernel = report.value("kernel").toObject();
        QVERIFY(!kernel.value("release").toString().isEmpty());
        QVERIFY(kernel.value("seccomp").isBool());
        QVERIFY(kernel.value("landlock_abi").isDouble() || kernel.value("landlock_abi").isNull());

        QSet<QString> ids;
        QSet<QString> areas;
        const QRegularExpression checkName(QStringLiteral("^[a-z][a-z_]*$"));
        const QJsonArray claims = report.value("claims").toArray();
        for (const auto& value : claims) {
            const QJsonObject claim = value.toObject();
            const QString id = claim.value("id").toString();
            QVERIFY2(!ids.contains(id), qPrintable("duplicate id " + id));
            ids.insert(id);
            areas.insert(claim.value("area").toString());
            QVERIFY2(checkName.match(claim.value("check").toString()).hasMatch(), qPrintable(id));
            QVERIFY2(!claim.value("claim").toString().isEmpty(), qPrintable(id));
            QVERIFY2(claim.value("details").isArray(), qPrintable(id));
        }
        for (const char* area :
             {"namespaces", "privileges", "seccomp", "landlock", "filesystem", "network", "secrets", "records", "host"}) {
            QVERIFY2(areas.contains(QString::fromLatin1(area)), area);
        }
        for (const char* id : {"namespaces.new", "privileges.cap_effective", "seccomp.filter", "landlock.abi",
                               "filesystem.workspace", "network.proxy_unlisted", "secrets.keychain",
                               "records.sessions", "host.sudo"}) {
            QVERIFY2(ids.contains(QString::fromLatin1(id)), id);
        }

        // Where this account's records really are, not a guess.
        for (const auto& value : claims) {
            const QJsonObject claim = value.toObject();
            if (claim.value("id").toString() == QLatin1String("records.sessions")) {
                const QString expected = QStringLiteral("on the host: ") + runner->stateDir() + "/sessions";
                QVERIFY2(claim.value("details").toArray().contains(expected), qPrintable(expected));
            }
        }
    }

    void textIsTerminalSafe_data()
    {
        IntegrationFixture::addAccountColumn();
        IntegrationFixture::addAccountRows();
    }
    // A state directory named to change the terminal's title: printed as '?'.
    void textIsTerminalSafe()
    {
        MOAT_FETCH_RUNNER(fixture_, runner);
        RunOptions options;
        options.environment.insert(QStringLiteral("MOAT_STATE_DIR"),
                                   runner->stateDir() + QStringLiteral("/\x1b]0;owned\x07"));
        const ProcessResult result = runner->moat({QStringLiteral("claims")}, options);
        QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));
        for (char byte : result.out) {
            const auto value = static_cast<unsigned char>(byte);
            QVERIFY2(value == '\n' || (value >= 0x20 && value != 0x7f), "a control byte reached the terminal");
        }
        QVERIFY(result.out.contains("?]0;owned?"));
        const int claimLines = int(result.out.count("[verified by: "));
        QVERIFY2(claimLines > 30, qPrintable(result.describe()));
    }

    void badFlagIsExit125()
    {
        AccountRunner* runner = fixture_.user() ? fixture_.user() : fixture_.root();
        QVERIFY(runner);
        const ProcessResult result = runner->moat({QStringLiteral("claims"), QStringLiteral("--no-such-flag")});
        QCOMPARE(result.exitCode, 125);
        QVERIFY2(result.stdErr().contains(QStringLiteral("--no-such-flag")), qPrintable(result.describe()));
    }

    void everyClaimsCheckPassesInProbe_data()
    {
        IntegrationFixture::addAccountColumn();
        IntegrationFixture::addAccountRows();
    }
    // Claims you can't check are just marketing: each claim's check, run by
    // moat probe inside a fresh default sandbox on this machine, is ok.
    void everyClaimsCheckPassesInProbe()
    {
        MOAT_FETCH_RUNNER(fixture_, runner);
        const ProcessResult claims = runner->moat({QStringLiteral("claims"), QStringLiteral("--json")});
        QVERIFY2(claims.exitCode == 0, qPrintable(claims.describe()));
        RunOptions options;
        options.timeoutMs = 60000;
        const ProcessResult probe = runner->moat({QStringLiteral("probe"), QStringLiteral("--json")}, options);
        QVERIFY2(probe.exitCode == 0, qPrintable(probe.describe()));

        QMap<QString, QJsonObject> checks;
        for (const auto& value : QJsonDocument::fromJson(probe.out).object().value("checks").toArray()) {
            checks.insert(value.toObject().value("name").toString(), value.toObject());
        }
        QStringList failing;
        for (const auto& value : QJsonDocument::fromJson(claims.out).object().value("claims").toArray()) {
            const QJsonObject claim = value.toObject();
            const QString name = claim.value("check").toString();
            if (!checks.contains(name)) {
                failing << claim.value("id").toString() + ": " + name + " not run by moat probe";
            } else if (!checks.value(name).value("ok").toBool()) {
                failing << claim.value("id").toString() + ": " + name + " NOT ok: " +
                               checks.value(name).value("detail").toString();
            }
        }
        QVERIFY2(failing.isEmpty(), qPrintable(failing.join(QLatin1Char('\n'))));
    }

private:
    IntegrationFixture fixture_;
};

QTEST_GUILESS_MAIN(ClaimsCli)
#include "tst_claims_cli.moc"
