// SPDX-License-Identifier: Apache-2.0
// The New sandbox dialog's command preview says what its toggles say: each
// row sets toggles as a user would and expects the exact `moat run` line;
// values from a profile stay out of the line (--profile carries them), a
// value the user sets goes in, and Reset takes it out again.

#include "moatd_connection.h"
#include "new_sandbox_dialog.h"
#include "origin_badge.h"
#include "run_choices.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using moat::gui::MoatdConnection;
using moat::gui::NewSandboxDialog;

class NewSandboxCommandPreview : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void previewMatchesToggles_data();
    void previewMatchesToggles();
    void aProfilesValuesShowTheirOriginAndReset();
    void everyToggleShowsItsOriginAndResets();
    void yoloSaysWhatItGivesUp();
    void shellQuotingReadsBackTheSameWords_data();
    void shellQuotingReadsBackTheSameWords();
    void typedCommandsSplitAsAShellSplitsThem_data();
    void typedCommandsSplitAsAShellSplitsThem();
    void anUnclosedQuoteBlocksStart();

private:
    template <typename Widget>
    Widget* child(NewSandboxDialog& dialog, const char* name)
    {
        auto* widget = dialog.findChild<Widget*>(QString::fromLatin1(name));
        if (widget == nullptr) {
            qFatal("the dialog has no %s", name);
        }
        return widget;
    }

    QTemporaryDir config_;
    // No moatd: the dialog must work (and list no secrets) without it.
    std::unique_ptr<MoatdConnection> moatd_;
};

void NewSandboxCommandPreview::initTestCase()
{
    QVERIFY(config_.isValid());
    qputenv("MOAT_CONFIG_DIR", config_.path().toUtf8());
    QVERIFY(QDir(config_.path()).mkpath(QStringLiteral("profiles")));
    QFile profile(config_.path() + QStringLiteral("/profiles/offline.toml"));
    QVERIFY(profile.open(QIODevice::WriteOnly));
    profile.write("description = \"no network, two hours\"\nnet = \"none\"\nttl = \"2h\"\n");
    profile.close();
    QFile withSecret(config_.path() + QStringLiteral("/profiles/with-token.toml"));
    QVERIFY(withSecret.open(QIODevice::WriteOnly));
    withSecret.write("description = \"one host, one token\"\nallow_host = [\"api.example.org\"]\n"
                     "secrets = [\"API_TOKEN\"]\n");
    withSecret.close();
    // The shipped profile, as the user's own (this program is not beside a share/ directory).
    QVERIFY(QFile::copy(QStringLiteral(MOAT_SOURCE_DIR "/resources/profiles/github-readonly.toml"),
                        config_.path() + QStringLiteral("/profiles/github-readonly.toml")));
    moatd_ = std::make_unique<MoatdConnection>(
        QDBusConnection::connectToBus(QStringLiteral("unix:path=/nonexistent/bus"), QStringLiteral("nobus")));
}

void NewSandboxCommandPreview::previewMatchesToggles_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("extraHosts");
    QTest::addColumn<bool>("sudo");
    QTest::addColumn<bool>("yolo");
    QTest::addColumn<QString>("net");
    QTest::addColumn<QString>("ttl");
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("expected");

    const QString head = QStringLiteral("moat run --workspace '/tmp/my work' --name t1");
    QTest::newRow("a shell, nothing else") << "shell" << QStringList() << false << false << "" << "" << ""
                                           << "" << head + " -- /bin/bash";
    QTest::newRow("claude reaches its API") << "claude" << QStringList() << false << false << "" << "" << "" << ""
                                            << head + " --allow-host api.anthropic.com -- claude";
    QTest::newRow("codex plus a host") << "codex" << QStringList{QStringLiteral("*.pypi.org")} << false << false
                                       << "" << "" << "" << ""
                                       << head + " --allow-host api.openai.com --allow-host '*.pypi.org' -- codex";
    QTest::newRow("sudo") << "shell" << QStringList() << true << false << "" << "" << "" << ""
                          << head + " --sudo -- /bin/bash";
    QTest::newRow("net none chosen") << "shell" << QStringList() << false << false << "none" << "" << "" << ""
                                     << head + " --net none -- /bin/bash";
    QTest::newRow("net proxy chosen again is still a choice")
        << "shell" << QStringList() << false << false << "proxy" << "" << "" << ""
        << head + " --net proxy -- /bin/bash";
    QTest::newRow("ttl typed") << "shell" << QStringList() << false << false << "" << "30m" << "" << ""
                               << head + " --ttl 30m -- /bin/bash";
    QTest::newRow("yolo replaces the powers it includes")
        << "claude" << QStringList() << true << true << "open" << "" << "" << ""
        << head + " --yolo -- claude";
    QTest::newRow("a profile's values are not repeated")
        << "shell" << QStringList() << false << false << "" << "" << "offline" << ""
        << head.section(QLatin1String(" --name"), 0, 0) + " --profile offline --name t1 -- /bin/bash";
    QTest::newRow("a profile with a parameter")
        << "shell" << QStringList() << false << false << "" << "" << "github-readonly=octo/hello" << ""
        << head.section(QLatin1String(" --name"), 0, 0) +
               " --profile github-readonly=octo/hello --name t1 -- /bin/bash";
    QTest::newRow("a command with quotes and spaces")
        << "shell" << QStringList() << false << false << "" << "" << ""
        << "sh -c 'echo \"it'\\''s here\"; exit 3'"
        << head + " -- sh -c 'echo \"it'\\''s here\"; exit 3'";
}

void NewSandboxCommandPreview::previewMatchesToggles()
{
    QFETCH(QString, preset);
    QFETCH(QStringList, extraHosts);
    QFETCH(bool, sudo);
    QFETCH(bool, yolo);
    QFETCH(QString, net);
    QFETCH(QString, ttl);
    QFETCH(QString, profile);
    QFETCH(QString, command);
    QFETCH(QString, expected);

    NewSandboxDialog dialog(moatd_.get());
    auto* presets = child<QComboBox>(dialog, "preset");
    presets->setCurrentIndex(presets->findData(preset));
    child<QLineEdit>(dialog, "workspace")->setText(QStringLiteral("/tmp/my work"));
    child<QLineEdit>(dialog, "name")->setText(QStringLiteral("t1"));
    if (!command.isEmpty()) {
        child<QLineEdit>(dialog, "command")->setText(command);
    }
    for (const QString& host : extraHosts) {
        child<QLineEdit>(dialog, "newHost")->setText(host);
        QTest::mouseClick(child<QPushButton>(dialog, "addHost"), Qt::LeftButton);
    }
    child<QCheckBox>(dialog, "sudo")->setChecked(sudo);
    if (!net.isEmpty()) {
        auto* box = child<QComboBox>(dialog, "net");
        box->setCurrentIndex(box->findData(QStringLiteral("none")));  // a change, then the wanted value
        box->setCurrentIndex(box->findData(net));
    }
    child<QCheckBox>(dialog, "yolo")->setChecked(yolo);
    if (!ttl.isEmpty()) {
        child<QLineEdit>(dialog, "ttl")->setText(ttl);
    }
    if (!profile.isEmpty()) {
        child<QComboBox>(dialog, "profile")->setCurrentText(profile);
    }
    QCOMPARE(child<QPlainTextEdit>(dialog, "preview")->toPlainText(), expected);
    QCOMPARE(dialog.commandPreview(), expected);
    // What runs is what is shown.
    QCOMPARE(moat::gui::shellCommandLine(QStringList{QStringLiteral("moat")} +
                                         moat::gui::moatRunArguments(dialog.choices())),
             expected);
    QVERIFY2(child<QPushButton>(dialog, "start")->isEnabled(), qPrintable(child<QLabel>(dialog, "problem")->text()));
}

void NewSandboxCommandPreview::aProfilesValuesShowTheirOriginAndReset()
{
    NewSandboxDialog dialog(moatd_.get());
    child<QLineEdit>(dialog, "name")->setText(QStringLiteral("t2"));
    auto* ttl = child<QLineEdit>(dialog, "ttl");
    auto* net = child<QComboBox>(dialog, "net");
    auto* netBadge = child<moat::gui::OriginBadge>(dialog, "netOrigin");
    auto* ttlBadge = child<moat::gui::OriginBadge>(dialog, "ttlOrigin");
    QCOMPARE(ttlBadge->origin(), moat::gui::ValueOrigin::Default);

    child<QComboBox>(dialog, "profile")->setCurrentText(QStringLiteral("offline"));
    QCOMPARE(ttl->text(), QStringLiteral("2h"));
    QCOMPARE(net->currentData().toString(), QStringLiteral("none"));
    QCOMPARE(ttlBadge->origin(), moat::gui::ValueOrigin::Profile);
    QCOMPARE(netBadge->origin(), moat::gui::ValueOrigin::Profile);
    QVERIFY(!dialog.commandPreview().contains(QLatin1String("--ttl")));

    ttl->setText(QStringLiteral("45m"));
    QCOMPARE(ttlBadge->origin(), moat::gui::ValueOrigin::User);
    QVERIFY(dialog.commandPreview().contains(QLatin1String("--ttl 45m")));
    QTest::mouseClick(ttlBadge->findChild<QToolButton*>(), Qt::LeftButton);
    QCOMPARE(ttl->text(), QStringLiteral("2h"));
    QCOMPARE(ttlBadge->origin(), moat::gui::ValueOrigin::Profile);
    QVERIFY(!dialog.commandPreview().contains(QLatin1String("--ttl")));

    // Without the profile, the default comes back.
    child<QComboBox>(dialog, "profile")->setCurrentText(QString());
    QCOMPARE(ttl->text(), QStringLiteral("8h"));
    QCOMPARE(ttlBadge->origin(), moat::gui::ValueOrigin::Default);
    QCOMPARE(net->currentData().toString(), QStringLiteral("proxy"));

    // A profile that cannot be read blocks Start and says why.
    child<QComboBox>(dialog, "profile")->setCurrentText(QStringLiteral("no-such-profile"));
    QVERIFY(!child<QPushButton>(dialog, "start")->isEnabled());
    QVERIFY(!child<QLabel>(dialog, "problem")->text().isEmpty());
}

// Beyond the values a profile sets: the hosts, the secrets and each power
// say default, profile or you, and Reset takes back only what you did.
void NewSandboxCommandPreview::everyToggleShowsItsOriginAndResets()
{
    using moat::gui::OriginBadge;
    using moat::gui::ValueOrigin;
    NewSandboxDialog dialog(moatd_.get());
    child<QLineEdit>(dialog, "name")->setText(QStringLiteral("t3"));
    child<QLineEdit>(dialog, "command")->setText(QStringLiteral("true"));
    auto resetOf = [](OriginBadge* badge) { return badge->findChild<QToolButton*>(); };

    // Powers: off is moat's default, on is yours; Reset turns it off.
    for (const char* power : {"sudo", "docker", "yolo"}) {
        auto* box = child<QCheckBox>(dialog, power);
        auto* badge = child<OriginBadge>(dialog, (QByteArray(power) + "Origin").constData());
        QCOMPARE(badge->origin(), ValueOrigin::Default);
        QVERIFY(!resetOf(badge)->isEnabled());
        box->setChecked(true);
        QCOMPARE(badge->origin(), ValueOrigin::User);
        QVERIFY(dialog.commandPreview().contains(QStringLiteral("--%1").arg(QLatin1String(power))));
        QTest::mouseClick(resetOf(badge), Qt::LeftButton);
        QVERIFY(!box->isChecked());
        QCOMPARE(badge->origin(), ValueOrigin::Default);
        QVERIFY(!dialog.commandPreview().contains(QStringLiteral("--%1").arg(QLatin1String(power))));
    }

    // Secrets (the names moatd would list): the profile's are bound by
    // --profile, shown checked and not uncheckable; yours are written.
    auto* secrets = child<QListWidget>(dialog, "secrets");
    for (const char* name : {"API_TOKEN", "OTHER_TOKEN"}) {
        auto* item = new QListWidgetItem(QString::fromLatin1(name), secrets);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    auto* hostsBadge = child<OriginBadge>(dialog, "hostsOrigin");
    auto* secretsBadge = child<OriginBadge>(dialog, "secretsOrigin");
    QCOMPARE(hostsBadge->origin(), ValueOrigin::Default);
    QCOMPARE(secretsBadge->origin(), ValueOrigin::Default);
    child<QComboBox>(dialog, "profile")->setCurrentText(QStringLiteral("with-token"));
    QCOMPARE(hostsBadge->origin(), ValueOrigin::Profile);
    QCOMPARE(secretsBadge->origin(), ValueOrigin::Profile);
    QCOMPARE(secrets->item(0)->checkState(), Qt::Checked);
    QVERIFY(!(secrets->item(0)->flags() & Qt::ItemIsUserCheckable));
    QVERIFY(!dialog.commandPreview().contains(QLatin1String("--secret")));
    secrets->item(1)->setCheckState(Qt::Checked);
    QCOMPARE(secretsBadge->origin(), ValueOrigin::User);
    QVERIFY(dialog.commandPreview().contains(QLatin1String("--secret OTHER_TOKEN")));
    QVERIFY(!dialog.commandPreview().contains(QLatin1String("--secret API_TOKEN")));
    QTest::mouseClick(resetOf(secretsBadge), Qt::LeftButton);
    QCOMPARE(secrets->item(1)->checkState(), Qt::Unchecked);
    QCOMPARE(secrets->item(0)->checkState(), Qt::Checked);
    QCOMPARE(secretsBadge->origin(), ValueOrigin::Profile);

    // Hosts you add are yours; Reset removes them and the profile's stay.
    child<QLineEdit>(dialog, "newHost")->setText(QStringLiteral("pypi.org"));
    QTest::mouseClick(child<QPushButton>(dialog, "addHost"), Qt::LeftButton);
    QCOMPARE(hostsBadge->origin(), ValueOrigin::User);
    QVERIFY(dialog.commandPreview().contains(QLatin1String("--allow-host pypi.org")));
    QTest::mouseClick(resetOf(hostsBadge), Qt::LeftButton);
    QCOMPARE(child<QListWidget>(dialog, "hosts")->count(), 0);
    QCOMPARE(hostsBadge->origin(), ValueOrigin::Profile);
    QVERIFY(!dialog.commandPreview().contains(QLatin1String("--allow-host")));

    // Another profile: its secret is no longer bound, and can be chosen again.
    child<QComboBox>(dialog, "profile")->setCurrentText(QString());
    QCOMPARE(secrets->item(0)->checkState(), Qt::Unchecked);
    QVERIFY(secrets->item(0)->flags() & Qt::ItemIsUserCheckable);
    QCOMPARE(hostsBadge->origin(), ValueOrigin::Default);
    QCOMPARE(secretsBadge->origin(), ValueOrigin::Default);
}

void NewSandboxCommandPreview::yoloSaysWhatItGivesUp()
{
    NewSandboxDialog dialog(moatd_.get());
    dialog.show();
    auto* warning = child<QLabel>(dialog, "yoloWarning");
    QVERIFY(!warning->isVisible());
    child<QCheckBox>(dialog, "yolo")->setChecked(true);
    QVERIFY(warning->isVisible());
    QVERIFY(warning->text().contains(QLatin1String("every file you can read")));
    QVERIFY(!child<QCheckBox>(dialog, "sudo")->isEnabled());
    QVERIFY(!child<QListWidget>(dialog, "hosts")->isEnabled());
}

void NewSandboxCommandPreview::shellQuotingReadsBackTheSameWords_data()
{
    QTest::addColumn<QStringList>("words");
    QTest::newRow("plain") << QStringList{QStringLiteral("ls"), QStringLiteral("-la")};
    QTest::newRow("spaces and quotes") << QStringList{QStringLiteral("a b"), QStringLiteral("it's"),
                                                      QStringLiteral("\"q\"")};
    QTest::newRow("shell specials") << QStringList{QStringLiteral("$(id)"), QStringLiteral("`x`;&|<>*?~!#")};
    QTest::newRow("empty word") << QStringList{QStringLiteral("echo"), QString()};
}

void NewSandboxCommandPreview::shellQuotingReadsBackTheSameWords()
{
    QFETCH(QStringList, words);
    // A real shell reads the line back: printf prints each word on a line.
    const QString line = moat::gui::shellCommandLine(QStringList{QStringLiteral("printf"), QStringLiteral("%s\\n")} +
                                                     words);
    QProcess shell;
    shell.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), line});
    QVERIFY(shell.waitForFinished(5000));
    QCOMPARE(QString::fromUtf8(shell.readAllStandardOutput()), words.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

void NewSandboxCommandPreview::typedCommandsSplitAsAShellSplitsThem_data()
{
    QTest::addColumn<QString>("line");
    QTest::newRow("words") << QStringLiteral("npm  run\ttest");
    QTest::newRow("single quotes") << QStringLiteral("sh -c 'echo \"hi\"; exit 3'");
    QTest::newRow("double quotes with escapes") << QStringLiteral("echo \"a \\\"b\\\" \\\\ \\x\"");
    QTest::newRow("backslash outside quotes") << QStringLiteral("touch a\\ b c\\'d");
    QTest::newRow("joined quoting") << QStringLiteral("'it'\\''s' \"x\"'y'z");
    QTest::newRow("empty quotes are a word") << QStringLiteral("printf '' \"\"");
}

void NewSandboxCommandPreview::typedCommandsSplitAsAShellSplitsThem()
{
    QFETCH(QString, line);
    const std::optional<QStringList> words = moat::gui::splitShellWords(line);
    QVERIFY(words.has_value());
    // The shell is the reference: it prints each word of the same line.
    QProcess shell;
    shell.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("printf '[%s]\\n' ") + line});
    QVERIFY(shell.waitForFinished(5000));
    QString expected;
    for (const QString& word : *words) {
        expected += QLatin1Char('[') + word + QStringLiteral("]\n");
    }
    QCOMPARE(QString::fromUtf8(shell.readAllStandardOutput()), expected);
}

void NewSandboxCommandPreview::anUnclosedQuoteBlocksStart()
{
    for (const char* line : {"echo 'open", "echo \"open", "echo trailing\\"}) {
        QVERIFY2(!moat::gui::splitShellWords(QString::fromLatin1(line)).has_value(), line);
    }
    NewSandboxDialog dialog(moatd_.get());
    child<QLineEdit>(dialog, "command")->setText(QStringLiteral("sh -c 'never closed"));
    QVERIFY(!child<QPushButton>(dialog, "start")->isEnabled());
    QVERIFY(child<QLabel>(dialog, "problem")->text().contains(QLatin1String("quote")));
}

QTEST_MAIN(NewSandboxCommandPreview)
#include "tst_new_sandbox_command_preview.moc"
