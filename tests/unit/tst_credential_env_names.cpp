// SPDX-License-Identifier: Apache-2.0
// Which environment variable names the probe reports as credentials, and
// that it reports names only: no value ever reaches its result.
#include "probe/secret_checks.h"

#include <QTest>

class CredentialEnvNames : public QObject {
    Q_OBJECT

private slots:
    void classifiesNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("credential");

        QTest::newRow("GITHUB_TOKEN") << "GITHUB_TOKEN" << true;
        QTest::newRow("GH_TOKEN") << "GH_TOKEN" << true;
        QTest::newRow("AWS_SECRET_ACCESS_KEY") << "AWS_SECRET_ACCESS_KEY" << true;
        QTest::newRow("AWS_ACCESS_KEY_ID") << "AWS_ACCESS_KEY_ID" << true;
        QTest::newRow("AWS_SESSION_TOKEN") << "AWS_SESSION_TOKEN" << true;
        QTest::newRow("ANTHROPIC_API_KEY") << "ANTHROPIC_API_KEY" << true;
        QTest::newRow("lower case") << "openai_api_key" << true;
        QTest::newRow("DB_PASSWORD") << "DB_PASSWORD" << true;
        QTest::newRow("MYSQL_PWD-like _PASS") << "SMTP_PASS" << true;
        QTest::newRow("CLIENT_SECRET") << "CLIENT_SECRET" << true;
        QTest::newRow("STRIPE_KEY") << "STRIPE_KEY" << true;
        QTest::newRow("GITLAB_PAT") << "GITLAB_PAT" << true;
        QTest::newRow("SSH_AUTH_SOCK") << "SSH_AUTH_SOCK" << true;
        QTest::newRow("GOOGLE_APPLICATION_CREDENTIALS") << "GOOGLE_APPLICATION_CREDENTIALS" << true;
        QTest::newRow("AWS_REGION") << "AWS_REGION" << false;
        QTest::newRow("AWS_PROFILE") << "AWS_PROFILE" << false;
        QTest::newRow("GITHUB_WORKSPACE") << "GITHUB_WORKSPACE" << false;
        QTest::newRow("PATH") << "PATH" << false;
        QTest::newRow("HOME") << "HOME" << false;
        QTest::newRow("KEYMAP") << "KEYMAP" << false;
        QTest::newRow("empty") << "" << false;
    }

    void classifiesNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, credential);
        QCOMPARE(moat::probe::looksLikeCredentialName(name.toStdString()), credential);
    }

    void reportsNamesNeverValues()
    {
        // Values that would themselves match, and one holding '=' and a newline.
        const char* environment[] = {"GITHUB_TOKEN=ghp_SECRETVALUE_TOKEN",
                                     "PATH=/usr/bin",
                                     "HARMLESS=API_KEY=PASSWORD",
                                     "DB_PASSWORD=hunter2\nAWS_SECRET_ACCESS_KEY=x",
                                     "NO_EQUALS_SECRET",
                                     nullptr};
        const auto names = moat::probe::credentialNames(environment);
        QCOMPARE(names, (std::vector<std::string>{"DB_PASSWORD", "GITHUB_TOKEN", "NO_EQUALS_SECRET"}));
    }

    void theCheckPrintsNoValue()
    {
        qputenv("MOAT_PROBE_TEST_TOKEN", "value-that-must-not-appear");
        const auto check = moat::probe::credentialEnvNames();
        qunsetenv("MOAT_PROBE_TEST_TOKEN");
        QVERIFY(!check.ok);
        QVERIFY(check.detail.find("MOAT_PROBE_TEST_TOKEN") != std::string::npos);
        QVERIFY(check.detail.find("value-that-must-not-appear") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(CredentialEnvNames)
#include "tst_credential_env_names.moc"
