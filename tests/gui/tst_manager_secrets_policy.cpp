// SPDX-License-Identifier: Apache-2.0
// moat-manager's Secrets and Policy pages against a real moatd and a real
// gnome-keyring on a private bus (MoatdBus).
//
// The pages run in this process, and moatd answers only its own uid: they
// are driven as this process's account (root, when run as root), and a copy
// of this program drives them again as the ordinary test account
// (rerunAsOrdinaryAccount). A secret added on the page is listed by `moat
// secret ls` with its hosts and headers while its value is in none of the
// page's widgets; a bad host shows moatd's message and stores nothing;
// rebinding asks for the value again; removal after the confirmation. sudo
// set to "refused" and an auto host pattern on the Policy page land in
// policy.toml (0600, owned by the account), which the escalation parser
// reads back, and moatd refuses a `moat request --sudo` from inside a
// sandbox; an invalid host pattern shows moatd's message and leaves the
// file as it was; a reset puts the default back.
//
// Also, as root: GetPolicy / SetPolicy called as the test user with
// dbus-send, and a caller of another uid (this root process) refused.
#include <sys/stat.h>

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <memory>

#include "integrationfixture.h"
#include "moatd_connection.h"
#include "moatdbus.h"
#include "own_account.h"
#include "policy/escalation_policy.h"
#include "policy_page.h"
#include "rerun_as_ordinary_account.h"
#include "secrets_page.h"

using moat::gui::MoatdConnection;
using moat::gui::PolicyPage;
using moat::gui::SecretsPage;

namespace {

constexpr int kAnswerMs = 20000;
const QString kSecretName = QStringLiteral("GUI_TEST_TOKEN");
const QString kSecretValue = QStringLiteral("v4lue-0f-the-gui-test-7c1e9b");

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// `moat secret ls --json` as the runner on the bus: name -> the entry.
QJsonObject listedSecret(AccountRunner* runner, const MoatdBus& bus, const QString& name, bool* listed)
{
    RunOptions options;
    options.environment = bus.environment();
    const ProcessResult result = runner->moat({QStringLiteral("secret"), QStringLiteral("ls"), QStringLiteral("--json")},
                                              options);
    *listed = result.succeeded();
    for (const QJsonValue& entry : QJsonDocument::fromJson(result.out).array()) {
        if (entry.toObject().value(QStringLiteral("name")).toString() == name) {
            return entry.toObject();
        }
    }
    return {};
}

QStringList strings(const QJsonValue& value)
{
    QStringList list;
    for (const QJsonValue& item : value.toArray()) {
        list.append(item.toString());
    }
    return list;
}

// Every piece of text the page holds in a widget a person could see or a
// program could read from it.
QStringList textsIn(QWidget* page)
{
    QStringList texts;
    for (auto* edit : page->findChildren<QLineEdit*>()) {
        texts << edit->text() << edit->placeholderText() << edit->displayText();
    }
    for (auto* label : page->findChildren<QLabel*>()) {
        texts << label->text();
    }
    for (auto* button : page->findChildren<QAbstractButton*>()) {
        texts << button->text();
    }
    for (auto* table : page->findChildren<QTableWidget*>()) {
        for (int row = 0; row < table->rowCount(); ++row) {
            for (int column = 0; column < table->columnCount(); ++column) {
                if (auto* item = table->item(row, column)) {
                    texts << item->text() << item->toolTip();
                }
            }
        }
    }
    for (auto* widget : page->findChildren<QWidget*>()) {
        texts << widget->toolTip() << widget->accessibleName() << widget->accessibleDescription();
    }
    return texts;
}

// Presses the button `which` of the message box the next action opens.
void answerNextMessageBox(QMessageBox::StandardButton which)
{
    QTimer::singleShot(0, [which] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (box) {
            box->button(which)->click();
        }
    });
}

// Shows `page` (which asks moatd at once) and takes its first answer.
template <typename Page>
bool shownAndAnswered(Page& page, QSignalSpy& answered)
{
    page.show();
    return answered.wait(kAnswerMs) && answered.takeFirst().at(0).toBool();
}

}  // namespace

class ManagerSecretsPolicy : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();
    void secretsFromThePage();
    void policyFromThePage();
    void thePagesAsAnOrdinaryAccount();
    void policyMethodsAsTheTestUser();

private:
    // This process's account, its bus with moatd and the app's link to it,
    // for the pages; false with `skip` when that account has no runner here,
    // or with `error` when the bus did not start.
    struct Desk {
        AccountRunner* runner = nullptr;
        std::unique_ptr<MoatdBus> bus;
        std::unique_ptr<MoatdConnection> moatd;
        QString skip;
        QString error;
    };
    bool openDesk(Desk& desk);

    IntegrationFixture fixture_;
};

void ManagerSecretsPolicy::initTestCase()
{
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void ManagerSecretsPolicy::init()
{
    fixture_.renewWorkspaces();
}

void ManagerSecretsPolicy::cleanupTestCase()
{
    fixture_.tearDown();
}

bool ManagerSecretsPolicy::openDesk(Desk& desk)
{
    desk.runner = ownAccountRunner(fixture_);
    if (desk.runner == nullptr) {
        desk.skip = QStringLiteral("this process's own account has no runner here");
        return false;
    }
    if (desk.skip = whyWindowsCannotRunAs(desk.runner); !desk.skip.isEmpty()) {
        return false;
    }
    desk.bus = std::make_unique<MoatdBus>(desk.runner);
    if (!desk.bus->start(&desk.error)) {
        return false;
    }
    desk.moatd = std::make_unique<MoatdConnection>(MoatdConnection::busAt(desk.bus->address()));
    return true;
}

void ManagerSecretsPolicy::secretsFromThePage()
{
    Desk desk;
    if (!openDesk(desk)) {
        if (!desk.skip.isEmpty()) {
            QSKIP(qPrintable(desk.skip));
        }
        QFAIL(qPrintable(desk.error));
    }
    MoatdBus& bus = *desk.bus;
    AccountRunner* runner = desk.runner;
    SecretsPage page(desk.moatd.get());
    QSignalSpy answered(&page, &SecretsPage::answered);
    QVERIFY(shownAndAnswered(page, answered));

    // A bad host: moatd's own message, and nothing stored.
    QTest::keyClicks(page.nameField(), kSecretName);
    QTest::keyClicks(page.valueField(), kSecretValue);
    QTest::keyClicks(page.hostsField(), QStringLiteral("https://api.example.com/"));
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QVERIFY(answered.wait(kAnswerMs));
    QCOMPARE(answered.takeFirst().at(0).toBool(), false);
    QVERIFY2(page.message().contains(QStringLiteral("--host https://api.example.com/")), qPrintable(page.message()));
    QCOMPARE(page.valueField()->text(), QString());
    bool listed = false;
    QVERIFY(listedSecret(runner, bus, kSecretName, &listed).isEmpty());
    QVERIFY(listed);

    // Added: listed with its bindings; the value is gone from the page.
    page.hostsField()->clear();
    QTest::keyClicks(page.valueField(), kSecretValue);
    QTest::keyClicks(page.hostsField(), QStringLiteral("api.example.com, *.acme.example"));
    QTest::keyClicks(page.headersField(), QStringLiteral("X-Api-Key"));
    QTest::keyClick(page.valueField(), Qt::Key_Return);
    QVERIFY(answered.wait(kAnswerMs));
    QVERIFY2(answered.takeFirst().at(0).toBool(), qPrintable(page.message()));
    const QJsonObject secret = listedSecret(runner, bus, kSecretName, &listed);
    QVERIFY2(!secret.isEmpty(), "moat secret ls does not list the secret saved on the page");
    QCOMPARE(strings(secret.value(QStringLiteral("hosts"))),
             (QStringList{QStringLiteral("api.example.com"), QStringLiteral("*.acme.example")}));
    QCOMPARE(strings(secret.value(QStringLiteral("headers"))), QStringList{QStringLiteral("X-Api-Key")});
    QCOMPARE(page.table()->rowCount(), 1);
    QCOMPARE(page.table()->item(0, 0)->text(), kSecretName);
    QVERIFY(!page.valueField()->isUndoAvailable());
    for (const QString& text : textsIn(&page)) {
        QVERIFY2(!text.contains(kSecretValue), qPrintable(QStringLiteral("the value is on the page: ") + text));
    }

    // Rebinding needs the value: without it nothing is sent.
    page.table()->selectRow(0);
    QTest::mouseClick(page.editButton(), Qt::LeftButton);
    QCOMPARE(page.nameField()->text(), kSecretName);
    QCOMPARE(page.hostsField()->text(), QStringLiteral("api.example.com, *.acme.example"));
    QCOMPARE(page.valueField()->text(), QString());
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QVERIFY(!answered.isEmpty() || answered.wait(2000));
    QCOMPARE(answered.takeFirst().at(0).toBool(), false);
    QVERIFY2(page.message().contains(QStringLiteral("value")), qPrintable(page.message()));

    // Removal asks first; Cancel keeps it, Yes removes it.
    page.table()->selectRow(0);
    answerNextMessageBox(QMessageBox::Cancel);
    QTest::mouseClick(page.removeButton(), Qt::LeftButton);
    QVERIFY(!listedSecret(runner, bus, kSecretName, &listed).isEmpty());
    answerNextMessageBox(QMessageBox::Yes);
    QTest::mouseClick(page.removeButton(), Qt::LeftButton);
    QVERIFY(answered.wait(kAnswerMs));
    QVERIFY2(answered.takeFirst().at(0).toBool(), qPrintable(page.message()));
    QVERIFY(listedSecret(runner, bus, kSecretName, &listed).isEmpty());
    QVERIFY(listed);
    QCOMPARE(page.table()->rowCount(), 0);
}

void ManagerSecretsPolicy::policyFromThePage()
{
    Desk desk;
    if (!openDesk(desk)) {
        if (!desk.skip.isEmpty()) {
            QSKIP(qPrintable(desk.skip));
        }
        QFAIL(qPrintable(desk.error));
    }
    MoatdBus& bus = *desk.bus;
    AccountRunner* runner = desk.runner;
    PolicyPage page(desk.moatd.get());
    QSignalSpy answered(&page, &PolicyPage::answered);
    QVERIFY(shownAndAnswered(page, answered));
    QCOMPARE(page.originText(QStringLiteral("sudo")), PolicyPage::tr("default"));
    QCOMPARE(page.grantBox(QStringLiteral("sudo"))->currentData().toString(), QStringLiteral("ask"));
    const QString policyFile = runner->configDir() + QStringLiteral("/policy.toml");
    QVERIFY(!QFile::exists(policyFile));

    // From the keyboard: sudo one down from "Ask me" is "Refused".
    QComboBox* sudo = page.grantBox(QStringLiteral("sudo"));
    sudo->setFocus();
    QTest::keyClick(sudo, Qt::Key_Down);
    QCOMPARE(sudo->currentData().toString(), QStringLiteral("deny"));
    QCOMPARE(page.originText(QStringLiteral("sudo")), PolicyPage::tr("%1 (not saved)").arg(PolicyPage::tr("your policy")));
    QTest::keyClicks(page.textField(QStringLiteral("auto_hosts")), QStringLiteral("*.pypi.org, registry.npmjs.org"));
    // Leaving the page and coming back keeps what is not saved yet.
    page.hide();
    page.show();
    QVERIFY(!answered.wait(500));
    QCOMPARE(sudo->currentData().toString(), QStringLiteral("deny"));
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QVERIFY(answered.wait(kAnswerMs));
    QVERIFY2(answered.takeFirst().at(0).toBool(), qPrintable(page.message()));

    struct stat st {};
    QCOMPARE(::stat(policyFile.toLocal8Bit().constData(), &st), 0);
    QCOMPARE(st.st_mode & 07777, 0600u);
    QCOMPARE(st.st_uid, runner->account().uid());
    const auto policy = moat::EscalationPolicy::load(runner->configDir().toStdString());
    QVERIFY2(policy.brokenBecause.empty(), policy.brokenBecause.c_str());
    QCOMPARE(QString::fromStdString(moat::toString(policy.sudo)), QStringLiteral("deny"));
    QCOMPARE(policy.autoHosts, (std::vector<std::string>{"*.pypi.org", "registry.npmjs.org"}));
    QCOMPARE(page.originText(QStringLiteral("sudo")), PolicyPage::tr("your policy"));
    QCOMPARE(page.originText(QStringLiteral("docker")), PolicyPage::tr("default"));

    // moatd judges an agent's request by it: sudo is refused at once.
    const QString ws = runner->workspace();
    auto session = bus.startSession({QStringLiteral("--name"), QStringLiteral("asks-sudo"), QStringLiteral("--ro"),
                                     runner->install().dir()},
                                    QStringLiteral("%1 request --sudo --reason 'install a package'; "
                                                   "echo REQUEST_STATUS=$?")
                                        .arg(runner->install().moat()));
    QVERIFY2(session->waitForOutput("EXIT=", 60000), session->output().constData());
    QVERIFY2(session->output().contains("REQUEST_STATUS=3"), session->output().constData());
    QVERIFY2(session->output().contains("sudo is deny"), session->output().constData());

    // An invalid pattern: moatd's message, and the file as it was.
    const QByteArray before = readAll(policyFile);
    QLineEdit* deny = page.textField(QStringLiteral("deny_hosts"));
    QTest::keyClicks(deny, QStringLiteral("https://internal.example/path"));
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QVERIFY(answered.wait(kAnswerMs));
    QCOMPARE(answered.takeFirst().at(0).toBool(), false);
    QVERIFY2(page.message().contains(QStringLiteral("deny_hosts")) &&
                 page.message().contains(QStringLiteral("https://internal.example/path")),
             qPrintable(page.message()));
    QCOMPARE(readAll(policyFile), before);

    // Reset sudo to the default and save: the file no longer names it.
    deny->clear();
    QTest::keyClicks(deny, QStringLiteral(" "));  // edited, and empty again
    QTest::mouseClick(page.resetButton(QStringLiteral("sudo")), Qt::LeftButton);
    QCOMPARE(sudo->currentData().toString(), QStringLiteral("ask"));
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QVERIFY(answered.wait(kAnswerMs));
    QVERIFY2(answered.takeFirst().at(0).toBool(), qPrintable(page.message()));
    QCOMPARE(page.originText(QStringLiteral("sudo")), PolicyPage::tr("default"));
    const auto after = moat::EscalationPolicy::load(runner->configDir().toStdString());
    QCOMPARE(QString::fromStdString(moat::toString(after.sudo)), QStringLiteral("ask"));
    QVERIFY(!readAll(policyFile).contains("sudo"));
    QCOMPARE(after.autoHosts.size(), size_t(2));
}

// Run as root, the two functions above drive the pages as root; a copy of
// this program drives them as the ordinary test account.
void ManagerSecretsPolicy::thePagesAsAnOrdinaryAccount()
{
    QString skip;
    const QString failed = rerunAsOrdinaryAccount(
        fixture_, {QStringLiteral("secretsFromThePage"), QStringLiteral("policyFromThePage")}, &skip);
    if (!skip.isEmpty()) {
        QSKIP(qPrintable(skip));
    }
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

void ManagerSecretsPolicy::policyMethodsAsTheTestUser()
{
    AccountRunner* runner = fixture_.user();
    if (!runner || !IntegrationFixture::runningAsRoot()) {
        QSKIP("needs root, to run dbus-send as the test user and to call moatd as another uid");
    }
    MoatdBus bus(runner);
    QString error;
    QVERIFY2(bus.start(&error, MoatdBus::Access::AnyUser), qPrintable(error));
    RunOptions options;
    options.environment = bus.environment();
    auto call = [&](const QString& method, const QStringList& arguments) {
        return runner->host(QStringList{QStringLiteral("dbus-send"), QStringLiteral("--session"),
                                        QStringLiteral("--print-reply"), QStringLiteral("--dest=org.moat.Manager1"),
                                        QStringLiteral("/org/moat/Manager1"),
                                        QStringLiteral("org.moat.Manager1.") + method} +
                                arguments,
                            options);
    };
    const ProcessResult set = call(QStringLiteral("SetPolicy"), {QStringLiteral("string:{\"sudo\":\"deny\"}")});
    QVERIFY2(set.succeeded(), set.err.constData());
    const QString policyFile = runner->configDir() + QStringLiteral("/policy.toml");
    struct stat st {};
    QCOMPARE(::stat(policyFile.toLocal8Bit().constData(), &st), 0);
    QCOMPARE(st.st_uid, runner->account().uid());
    QCOMPARE(st.st_mode & 07777, 0600u);
    const auto policy = moat::EscalationPolicy::load(runner->configDir().toStdString());
    QCOMPARE(QString::fromStdString(moat::toString(policy.sudo)), QStringLiteral("deny"));
    const ProcessResult got = call(QStringLiteral("GetPolicy"), {});
    QVERIFY2(got.succeeded(), got.err.constData());
    QVERIFY2(got.out.contains("\\\"sudo\\\":{\\\"default\\\":\\\"ask\\\",\\\"origin\\\":\\\"file\\\",\\\"value\\\":\\\"deny\\\"}") ||
                 got.out.contains("\"sudo\":{\"default\":\"ask\",\"origin\":\"file\",\"value\":\"deny\"}"),
             got.out.constData());
    const ProcessResult bad =
        call(QStringLiteral("SetPolicy"), {QStringLiteral("string:{\"auto_hosts\":[\"pypi.org/simple\"]}")});
    QVERIFY(!bad.succeeded());
    QVERIFY2(bad.err.contains("org.moat.Error.InvalidArgument") && bad.err.contains("auto_hosts"),
             bad.err.constData());
    QCOMPARE(QString::fromStdString(moat::toString(moat::EscalationPolicy::load(runner->configDir().toStdString()).sudo)),
             QStringLiteral("deny"));

    // This process is root, not the bus's owner: moatd refuses it.
    MoatdConnection other(MoatdConnection::busAt(bus.openAddress()));
    bool done = false;
    moat::gui::MoatdAnswer answer;
    other.getPolicy([&](const moat::gui::MoatdAnswer& a) {
        answer = a;
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, kAnswerMs);
    QVERIFY(!answer.ok);
    QCOMPARE(answer.errorName, QStringLiteral("org.moat.Error.AccessDenied"));
    other.setPolicy(QStringLiteral("{\"sudo\":\"auto\"}"), [&](const moat::gui::MoatdAnswer& a) {
        answer = a;
        done = true;
    });
    done = false;
    QTRY_VERIFY_WITH_TIMEOUT(done, kAnswerMs);
    QCOMPARE(answer.errorName, QStringLiteral("org.moat.Error.AccessDenied"));
    QCOMPARE(QString::fromStdString(moat::toString(moat::EscalationPolicy::load(runner->configDir().toStdString()).sudo)),
             QStringLiteral("deny"));
}

QTEST_MAIN(ManagerSecretsPolicy)
#include "tst_manager_secrets_policy.moc"
