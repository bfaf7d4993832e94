// SPDX-License-Identifier: Apache-2.0
// GetPolicy / SetPolicy's core (policy/policy_document.h): a change from the
// Policy page becomes a policy.toml that the escalation parser reads back as
// the same settings, each shown as coming from the file; what it leaves out
// stays the default; a bad setting is refused before any file is written;
// the file is replaced whole and is 0600.
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "policy/escalation_policy.h"
#include "policy/policy_document.h"

namespace pd = moat::policy_document;
using nlohmann::json;

namespace {
QString grant(moat::Grant value)
{
    return QString::fromStdString(moat::toString(value));
}
}  // namespace

class PolicyDocumentTest : public QObject {
    Q_OBJECT

private slots:
    void noFileShowsEveryDefault()
    {
        QTemporaryDir dir;
        const json shown = pd::describe(dir.path().toStdString());
        QCOMPARE(shown.at("broken").get<std::string>(), std::string());
        for (const auto& [name, setting] : shown.at("settings").items()) {
            QCOMPARE(setting.at("origin").get<std::string>(), std::string("default"));
            QVERIFY2(setting.at("value") == setting.at("default"), name.c_str());
        }
        QCOMPARE(shown.at("settings").at("net_open").at("value").get<std::string>(), std::string("deny"));
    }

    void aChangeRoundTripsThroughTheFile()
    {
        QTemporaryDir dir;
        const json change = {{"sudo", "deny"},
                             {"auto_hosts", {"*.pypi.org", "registry.npmjs.org"}},
                             {"deny_hosts", {"*.internal.example"}},
                             {"timeout", "5m"}};
        auto text = pd::tomlFromChange(change);
        QVERIFY2(text, text ? "" : text.error().message().c_str());
        QVERIFY(pd::writeAtomically(dir.path().toStdString(), text.value()));

        const auto policy = moat::EscalationPolicy::load(dir.path().toStdString());
        QCOMPARE(policy.brokenBecause, std::string());
        QCOMPARE(grant(policy.sudo), QStringLiteral("deny"));
        QCOMPARE(grant(policy.docker), QStringLiteral("ask"));
        QCOMPARE(policy.autoHosts, (std::vector<std::string>{"*.pypi.org", "registry.npmjs.org"}));
        QCOMPARE(policy.denyHosts, (std::vector<std::string>{"*.internal.example"}));
        QCOMPARE(policy.timeout.seconds().count(), 300);

        const json settings = pd::describe(dir.path().toStdString()).at("settings");
        QCOMPARE(settings.at("sudo").at("value").get<std::string>(), std::string("deny"));
        QCOMPARE(settings.at("sudo").at("origin").get<std::string>(), std::string("file"));
        QCOMPARE(settings.at("auto_hosts").at("origin").get<std::string>(), std::string("file"));
        QVERIFY(settings.at("auto_hosts").at("value") == change.at("auto_hosts"));
        QCOMPARE(settings.at("timeout").at("origin").get<std::string>(), std::string("file"));
        QCOMPARE(settings.at("docker").at("origin").get<std::string>(), std::string("default"));
        QCOMPARE(settings.at("allow_host").at("origin").get<std::string>(), std::string("default"));

        // Writing the settings shown back (only those from the file) gives
        // the same file: the page can save what it was shown.
        json again;
        for (const auto& [name, setting] : settings.items()) {
            if (setting.at("origin") == "file") {
                again[name] = setting.at("value");
            }
        }
        QCOMPARE(pd::tomlFromChange(again).value(), text.value());
    }

    void anEmptyChangeIsEveryDefault()
    {
        auto text = pd::tomlFromChange(json::object());
        QVERIFY(text);
        auto policy = moat::EscalationPolicy::parse(text.value());
        QVERIFY(policy);
        QCOMPARE(grant(policy->sudo), grant(moat::EscalationPolicy::defaults().sudo));
        QVERIFY(policy->autoHosts.empty());
    }

    void badChangesAreRefusedWithTheSetting_data()
    {
        QTest::addColumn<QByteArray>("change");
        QTest::addColumn<QString>("named");
        QTest::newRow("grant") << QByteArray("{\"sudo\":\"maybe\"}") << "sudo";
        QTest::newRow("grant type") << QByteArray("{\"docker\":true}") << "docker";
        QTest::newRow("url as host") << QByteArray("{\"auto_hosts\":[\"https://pypi.org\"]}") << "auto_hosts";
        QTest::newRow("path in host") << QByteArray("{\"deny_hosts\":[\"pypi.org/simple\"]}") << "deny_hosts";
        QTest::newRow("hosts not a list") << QByteArray("{\"auto_hosts\":\"pypi.org\"}") << "auto_hosts";
        QTest::newRow("long timeout") << QByteArray("{\"timeout\":\"1h\"}") << "timeout";
        QTest::newRow("unknown") << QByteArray("{\"yolo\":\"auto\"}") << "yolo";
        QTest::newRow("toml injection") << QByteArray("{\"auto_hosts\":[\"a.example\\\"]\\nsudo = \\\"auto\"]}")
                                        << "auto_hosts";
        QTest::newRow("not an object") << QByteArray("[\"sudo\"]") << "JSON object";
    }
    void badChangesAreRefusedWithTheSetting()
    {
        QFETCH(QByteArray, change);
        QFETCH(QString, named);
        auto text = pd::tomlFromChange(json::parse(change.toStdString()));
        QVERIFY(!text);
        QVERIFY2(QString::fromStdString(text.error().message()).contains(named),
                 text.error().message().c_str());
    }

    void theFileIsReplacedWholeAndPrivate()
    {
        QTemporaryDir dir;
        const std::string config = dir.path().toStdString() + "/moat";  // made on demand
        QVERIFY(pd::writeAtomically(config, pd::tomlFromChange({{"sudo", "auto"}}).value()));
        QVERIFY(pd::writeAtomically(config, pd::tomlFromChange({{"docker", "deny"}}).value()));
        struct stat st {};
        QCOMPARE(::stat((config + "/policy.toml").c_str(), &st), 0);
        QCOMPARE(st.st_mode & 07777, 0600u);
        const auto policy = moat::EscalationPolicy::load(config);
        QCOMPARE(grant(policy.sudo), QStringLiteral("ask"));  // the first file is gone, not merged
        QCOMPARE(grant(policy.docker), QStringLiteral("deny"));
        // No temporary file is left beside it.
        QCOMPARE(QDir(QString::fromStdString(config)).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void aBrokenFileIsShownAsBroken()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("policy.toml")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("sudo = \"sometimes\"\n");
        file.close();
        const json shown = pd::describe(dir.path().toStdString());
        QVERIFY(QString::fromStdString(shown.at("broken").get<std::string>()).contains(QStringLiteral("sudo")));
    }
};

QTEST_GUILESS_MAIN(PolicyDocumentTest)
#include "tst_policy_document.moc"
