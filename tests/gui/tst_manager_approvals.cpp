// SPDX-License-Identifier: Apache-2.0
// The approval prompt against a real moatd (D-Bus activation on a private
// bus, gnome-keyring, real moat and sandboxes): an agent's `moat request
// --allow-host` inside a sandbox appears in moat-manager's ApprovalPrompt
// (through ApprovalQueue and MoatdConnection, as the application wires
// them), and a click on Approve lets `moat request` exit 0 (its successor
// runs), a click on Deny makes it exit 3, and a prompt nobody answers
// denies it when its countdown ends (exit 3). moatd's record of each names
// the answer's uid and the client "gui". A POST an `ask` rule holds,
// approved "for this session", lets the same POST from the session through
// later without asking (AnswerApprovalScoped), recorded with whose grant it
// was; another path is still held.
// "Always for this profile" on a `moat request --allow-host` from a session
// started with --profile writes the host into that profile file after the
// confirmation shows its new text (Cancel writes and answers nothing), and
// is recorded with the scope "profile"; a new session of the profile then
// reaches the host without asking.
//
// moatd answers only callers of its own uid, and the prompt runs inside
// this test process: a row runs where the account's uid is this process's
// (root as root; the invoking user when the suite runs as an ordinary user).
//
// The desktop's notification server is played by a recorder on the private
// bus (org.freedesktop.Notifications): the tray's notifications are checked
// for what they carry (never the agent's reason) and that they are closed
// when moatd decides.

#include "allow_rule_dialog.h"
#include "approval_prompt.h"
#include "approval_queue.h"
#include "approval_tray.h"
#include "moatd_connection.h"

#include "integrationfixture.h"
#include "moatdbus.h"
#include "own_account.h"
#include "rerun_as_ordinary_account.h"
#include "recordingupstream.h"

#include <QDBusConnection>
#include <QDialogButtonBox>
#include <QFile>
#include <QDBusError>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QTest>

#include <memory>
#include <optional>

#include <unistd.h>

using moat::gui::AllowRuleDialog;
using moat::gui::ApprovalPrompt;
using moat::gui::ApprovalQueue;
using moat::gui::ApprovalTray;
using moat::gui::MoatdAnswer;
using moat::gui::MoatdConnection;

namespace {

QList<QJsonObject> decisionsOf(AccountRunner* runner, const MoatdBus& bus, const QString& id, QString* raw)
{
    RunOptions options;
    options.environment = bus.environment();
    const ProcessResult logs = runner->moat({QStringLiteral("logs"), id, QStringLiteral("--json")}, options);
    *raw = logs.describe();
    QList<QJsonObject> decisions;
    for (const QByteArray& line : logs.out.split('\n')) {
        const QJsonObject event = QJsonDocument::fromJson(line).object();
        if (event.value(QLatin1String("type")).toString() == QLatin1String("approval.decision")) {
            decisions.append(event.value(QLatin1String("data")).toObject());
        }
    }
    return decisions;
}

}  // namespace

// org.freedesktop.Notifications as a desktop's server offers it, recording
// what it is asked to show.
class NotificationRecorder : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")

public:
    struct Shown {
        QString summary;
        QString body;
        QStringList actions;
        bool closed = false;
    };
    QList<Shown> shown;

public slots:
    uint Notify(const QString& app, uint replaces, const QString& icon, const QString& summary, const QString& body,
                const QStringList& actions, const QVariantMap& hints, int timeout)
    {
        Q_UNUSED(app);
        Q_UNUSED(replaces);
        Q_UNUSED(icon);
        Q_UNUSED(hints);
        Q_UNUSED(timeout);
        shown.append({summary, body, actions, false});
        return static_cast<uint>(shown.size());
    }
    void CloseNotification(uint id)
    {
        if (id >= 1 && id <= static_cast<uint>(shown.size())) {
            shown[static_cast<int>(id) - 1].closed = true;
        }
    }
};

namespace {

// A private bus with moatd and a notification server, and the prompt and
// tray as moat-manager wires them.
struct GuiOnBus {
    explicit GuiOnBus(AccountRunner* runner) : bus(runner) {}
    bool start(QString* error)
    {
        if (!bus.start(error)) {
            return false;
        }
        server = QDBusConnection::connectToBus(bus.address(), QStringLiteral("notification-server"));
        if (!server.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &notifications,
                                   QDBusConnection::ExportAllSlots) ||
            !server.registerService(QStringLiteral("org.freedesktop.Notifications"))) {
            *error = QStringLiteral("cannot offer org.freedesktop.Notifications: ") + server.lastError().message();
            return false;
        }
        connection = std::make_unique<MoatdConnection>(MoatdConnection::busAt(bus.address()));
        queue = std::make_unique<ApprovalQueue>(connection.get());
        prompt = std::make_unique<ApprovalPrompt>(queue.get());
        tray = std::make_unique<ApprovalTray>(queue.get(), MoatdConnection::busAt(bus.address()));
        return true;
    }
    ~GuiOnBus()
    {
        tray.reset();
        prompt.reset();
        queue.reset();
        connection.reset();
        server.unregisterObject(QStringLiteral("/org/freedesktop/Notifications"));
        QDBusConnection::disconnectFromBus(QStringLiteral("notification-server"));
    }
    // moatd's error name for AnswerApprovalScoped(rid, approve, scope), or
    // "ok" when it took the answer, or "" when it did not reply in 10 s.
    QString answerScoped(const QString& rid, bool approve, const QString& scope)
    {
        auto got = std::make_shared<std::optional<MoatdAnswer>>();
        connection->answerApprovalScoped(rid, approve, scope, [got](const MoatdAnswer& answer) { *got = answer; });
        if (!QTest::qWaitFor([got] { return got->has_value(); }, 10000)) {
            return {};
        }
        return (*got)->ok ? QStringLiteral("ok") : (*got)->errorName;
    }
    GuiOnBus(const GuiOnBus&) = delete;
    GuiOnBus& operator=(const GuiOnBus&) = delete;

    MoatdBus bus;
    std::unique_ptr<MoatdConnection> connection;
    std::unique_ptr<ApprovalQueue> queue;
    std::unique_ptr<ApprovalPrompt> prompt;
    std::unique_ptr<ApprovalTray> tray;
    NotificationRecorder notifications;
    QDBusConnection server{QStringLiteral("none")};
};

}  // namespace

class ManagerApprovals : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void anAgentsRequestIsAnsweredInThePrompt_data();
    void anAgentsRequestIsAnsweredInThePrompt();
    void anApprovalForTheSessionLetsTheSameRequestThroughLater_data();
    void anApprovalForTheSessionLetsTheSameRequestThroughLater();
    void anApprovalForTheProfileWritesTheHostForItsNextSessions_data();
    void anApprovalForTheProfileWritesTheHostForItsNextSessions();
    void theUserRowsAsAnOrdinaryAccount();

private:
    IntegrationFixture fixture_;
};

void ManagerApprovals::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void ManagerApprovals::init()
{
    fixture_.renewWorkspaces();
}

void ManagerApprovals::cleanupTestCase()
{
    fixture_.tearDown();
}

void ManagerApprovals::anAgentsRequestIsAnsweredInThePrompt_data()
{
    IntegrationFixture::addAccountColumn();
    QTest::addColumn<QString>("answer");
    for (const char* account : {"root", "user"}) {
        for (const char* answer : {"approve", "deny", "countdown"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1:%2").arg(QLatin1String(account), QLatin1String(answer))))
                << QString::fromLatin1(account) << QString::fromLatin1(answer);
        }
    }
}

void ManagerApprovals::anAgentsRequestIsAnsweredInThePrompt()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, answer);
    if (const QString why = whyWindowsCannotRunAs(runner); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    // Written by the account itself, as a person would.
    const ProcessResult policy = runner->hostShell(
        QStringLiteral("printf 'timeout = \"90s\"\\n[allow_host]\\ndefault = \"ask\"\\n' > '%1/policy.toml'")
            .arg(runner->configDir()));
    QVERIFY2(policy.succeeded(), qPrintable(policy.describe()));
    // The reason carries markup and a terminal escape: the prompt shows them as text.
    const QString agent = QStringLiteral("%1 request --allow-host 127.0.0.1:9 --reason \"$(printf 'need <b>it</b>\\033[2J')\" "
                                         "-- sh -c 'echo successor-ran-$((40+2))'; echo \"REQUEST_STATUS=$?\"")
                              .arg(runner->install().moat());

    GuiOnBus gui(runner);
    QString error;
    QVERIFY2(gui.start(&error), qPrintable(error));
    MoatdBus& bus = gui.bus;
    ApprovalQueue& queue = *gui.queue;
    ApprovalPrompt& prompt = *gui.prompt;
    prompt.setCountdownSeconds(answer == QLatin1String("countdown") ? 2 : 120);

    const QString name = QStringLiteral("gui-%1").arg(answer);
    auto session = bus.startSession({QStringLiteral("--name"), name, QStringLiteral("--ro"), runner->install().dir()},
                                    agent);
    // The request reaches the prompt through moatd's ApprovalRequested.
    QTRY_VERIFY2_WITH_TIMEOUT(prompt.isVisible(), session->output().constData(), 30000);
    const QString first = bus.session(name).value(QLatin1String("id")).toString();
    QVERIFY(!first.isEmpty());
    QCOMPARE(queue.entries().size(), 1);
    QCOMPARE(queue.entries().at(0).session, first);
    const QString what = prompt.findChild<QLabel*>(QStringLiteral("what"))->text();
    QVERIFY2(what == QLatin1String("--allow-host 127.0.0.1:9"), qPrintable(what));
    const QString reason = prompt.findChild<QLabel*>(QStringLiteral("reason"))->text();
    QVERIFY2(reason == QStringLiteral("“need <b>it</b>\\x1b[2J”"), qPrintable(reason));

    // A desktop notification says that something waits, without the agent's words.
    QTRY_COMPARE_WITH_TIMEOUT(gui.notifications.shown.size(), 1, 5000);
    const NotificationRecorder::Shown notice = gui.notifications.shown.first();
    QCOMPARE(notice.summary, QStringLiteral("An agent asks for approval"));
    QVERIFY2(notice.body.contains(QLatin1String("asks for --allow-host 127.0.0.1:9")), qPrintable(notice.body));
    QVERIFY2(!notice.body.contains(QLatin1String("need")) && !notice.body.contains(QLatin1Char('<')),
             qPrintable(notice.body));
    QVERIFY2(gui.tray->toolTip().contains(QLatin1String("1 approval")), qPrintable(gui.tray->toolTip()));

    if (answer == QLatin1String("approve")) {
        // "This session" is not for a `moat request` (its approval ends the
        // session), nor is a scope moatd does not know: moatd refuses them,
        // and the request still waits.
        const QString rid = queue.entries().at(0).requestIds.first();
        // "profile" is not for a session started without --profile either.
        QCOMPARE(queue.entries().at(0).profile, QStringLiteral("default"));
        QVERIFY(!prompt.findChild<QRadioButton*>(QStringLiteral("scopeProfile"))->isEnabled());
        for (const QString& scope : {QStringLiteral("session"), QStringLiteral("forever"), QStringLiteral("profile")}) {
            QCOMPARE(gui.answerScoped(rid, true, scope), QStringLiteral("org.moat.Error.InvalidArgument"));
        }
        QCOMPARE(queue.entries().size(), 1);
    }
    if (answer != QLatin1String("countdown")) {
        QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 1000);
        QTest::mouseClick(prompt.findChild<QPushButton*>(answer), Qt::LeftButton);
    }
    QTRY_VERIFY2_WITH_TIMEOUT(session->output().contains("EXIT="), session->output().constData(), 60000);
    const QByteArray output = session->output();
    // Decided: off the queue, the window gone.
    QTRY_VERIFY_WITH_TIMEOUT(queue.entries().isEmpty(), 5000);
    QVERIFY(!prompt.isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(gui.notifications.shown.first().closed, 5000);
    QVERIFY2(gui.tray->toolTip().contains(QLatin1String("no approval")), qPrintable(gui.tray->toolTip()));

    const bool approved = answer == QLatin1String("approve");
    QVERIFY2(output.contains(approved ? "REQUEST_STATUS=0" : "REQUEST_STATUS=3"), output.constData());
    // (The command itself is in moat's notice on the terminal; only a run prints 42.)
    QCOMPARE(output.contains("successor-ran-42"), approved);

    QString raw;
    const QList<QJsonObject> decisions = decisionsOf(runner, bus, first, &raw);
    QVERIFY2(decisions.size() == 1, qPrintable(raw));
    const QJsonObject decided = decisions.first();
    QCOMPARE(decided.value(QLatin1String("decision")).toString(),
             approved ? QStringLiteral("approved") : QStringLiteral("denied"));
    const QJsonObject by = decided.value(QLatin1String("by")).toObject();
    QCOMPARE(by.value(QLatin1String("client")).toString(), QStringLiteral("gui"));
    QCOMPARE(by.value(QLatin1String("uid")).toInteger(), static_cast<qint64>(runner->account().uid()));
    QCOMPARE(by.value(QLatin1String("user")).toString(), runner->account().name());
}

void ManagerApprovals::anApprovalForTheSessionLetsTheSameRequestThroughLater_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ManagerApprovals::anApprovalForTheSessionLetsTheSameRequestThroughLater()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (const QString why = whyWindowsCannotRunAs(runner); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    UpstreamPki pki(runner);
    QVERIFY(pki.ok);
    RecordingUpstream upstream(runner, pki);
    const QString a = upstream.authority();
    const QString post = QStringLiteral("curl -sS --noproxy '' --proxy http://127.0.0.1:3128 -X POST -d x "
                                        "-o /dev/null -w '%1=%{http_code}\\n' ");
    const QString script = post.arg(QStringLiteral("FIRST")) + upstream.url(QStringLiteral("/deploy")) + QStringLiteral("; ") +
                           post.arg(QStringLiteral("SECOND")) + upstream.url(QStringLiteral("/deploy")) + QStringLiteral("; ") +
                           post.arg(QStringLiteral("OTHER")) + upstream.url(QStringLiteral("/other"));

    GuiOnBus gui(runner);
    QString error;
    QVERIFY2(gui.start(&error), qPrintable(error));
    MoatdBus& bus = gui.bus;
    ApprovalQueue& queue = *gui.queue;
    ApprovalPrompt& prompt = *gui.prompt;
    prompt.setCountdownSeconds(120);

    const QString name = QStringLiteral("gui-session-scope");
    auto session = bus.startSession({QStringLiteral("--name"), name, QStringLiteral("--allow-host"), a,
                                     QStringLiteral("--upstream-ca"), pki.ca, QStringLiteral("--rule"),
                                     QStringLiteral("POST %1 /* ask").arg(a)},
                                    script);
    QTRY_VERIFY2_WITH_TIMEOUT(prompt.isVisible(), session->output().constData(), 30000);
    QCOMPARE(queue.entries().at(0).kind, QStringLiteral("http"));
    QVERIFY2(prompt.findChild<QLabel*>(QStringLiteral("what"))->text().endsWith(QLatin1String(" /deploy")),
             qPrintable(prompt.findChild<QLabel*>(QStringLiteral("what"))->text()));
    // Not "always for this profile": moatd refuses it for an ask rule's request.
    QVERIFY(!prompt.findChild<QRadioButton*>(QStringLiteral("scopeProfile"))->isEnabled());
    QCOMPARE(gui.answerScoped(queue.entries().at(0).requestIds.first(), true, QStringLiteral("profile")),
             QStringLiteral("org.moat.Error.InvalidArgument"));
    auto* forSession = prompt.findChild<QRadioButton*>(QStringLiteral("scopeSession"));
    QVERIFY(forSession->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 1000);
    QTest::mouseClick(forSession, Qt::LeftButton, {}, QPoint(4, forSession->height() / 2));  // on its circle
    QVERIFY(forSession->isChecked());
    QTest::mouseClick(prompt.findChild<QPushButton*>(QStringLiteral("approve")), Qt::LeftButton);

    // The second POST /deploy is not asked about; POST /other is.
    QTRY_VERIFY2_WITH_TIMEOUT(session->output().contains("SECOND="), session->output().constData(), 30000);
    QTRY_VERIFY2_WITH_TIMEOUT(prompt.isVisible(), session->output().constData(), 30000);
    QVERIFY2(prompt.findChild<QLabel*>(QStringLiteral("what"))->text().endsWith(QLatin1String(" /other")),
             qPrintable(prompt.findChild<QLabel*>(QStringLiteral("what"))->text()));
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 1000);
    QTest::mouseClick(prompt.findChild<QPushButton*>(QStringLiteral("deny")), Qt::LeftButton);
    QTRY_VERIFY2_WITH_TIMEOUT(session->output().contains("EXIT="), session->output().constData(), 60000);
    const QByteArray output = session->output();
    QVERIFY2(output.contains("FIRST=200") && output.contains("SECOND=200") && output.contains("OTHER=403"),
             output.constData());

    const QString id = bus.session(name).value(QLatin1String("id")).toString();
    QString raw;
    const QList<QJsonObject> decisions = decisionsOf(runner, bus, id, &raw);
    QVERIFY2(decisions.size() == 3, qPrintable(raw));
    const QJsonObject granted = decisions.at(0).value(QLatin1String("by")).toObject();
    QCOMPARE(decisions.at(0).value(QLatin1String("decision")).toString(), QStringLiteral("approved"));
    QCOMPARE(granted.value(QLatin1String("client")).toString(), QStringLiteral("gui"));
    QCOMPARE(granted.value(QLatin1String("scope")).toString(), QStringLiteral("session"));
    QCOMPARE(granted.value(QLatin1String("uid")).toInteger(), static_cast<qint64>(runner->account().uid()));
    // The second: moatd's, in the name of the first answer.
    QCOMPARE(decisions.at(1).value(QLatin1String("decision")).toString(), QStringLiteral("approved"));
    const QJsonObject later = decisions.at(1).value(QLatin1String("by")).toObject();
    QCOMPARE(later.value(QLatin1String("scope")).toString(), QStringLiteral("session"));
    const QJsonObject setBy = later.value(QLatin1String("set_by")).toObject();
    QCOMPARE(setBy.value(QLatin1String("client")).toString(), QStringLiteral("gui"));
    QCOMPARE(setBy.value(QLatin1String("user")).toString(), runner->account().name());
    QCOMPARE(setBy.value(QLatin1String("rid")).toString(), decisions.at(0).value(QLatin1String("rid")).toString());
    QCOMPARE(decisions.at(2).value(QLatin1String("decision")).toString(), QStringLiteral("denied"));
    int posts = 0;
    for (const QJsonObject& request : upstream.requests()) {
        posts += request.value(QStringLiteral("method")).toString() == QStringLiteral("POST");
    }
    QCOMPARE(posts, 2);
}

void ManagerApprovals::anApprovalForTheProfileWritesTheHostForItsNextSessions_data()
{
    anApprovalForTheSessionLetsTheSameRequestThroughLater_data();  // root and user
}

void ManagerApprovals::anApprovalForTheProfileWritesTheHostForItsNextSessions()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (const QString why = whyWindowsCannotRunAs(runner); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    UpstreamPki pki(runner);
    QVERIFY(pki.ok);
    RecordingUpstream upstream(runner, pki);
    const QString a = upstream.authority();
    // The account's own policy (every host asks) and profile, as a person writes them.
    const QString profiles = runner->configDir() + QStringLiteral("/profiles");
    const QString file = profiles + QStringLiteral("/gui-always.toml");
    const QByteArray before = "# for the gui test\ndescription = \"gui test\"\n";
    const ProcessResult setUp = runner->hostShell(
        QStringLiteral("printf 'timeout = \"90s\"\\n[allow_host]\\ndefault = \"ask\"\\n' > '%1/policy.toml' && "
                       "mkdir -p '%2' && printf '# for the gui test\\ndescription = \"gui test\"\\n' > '%3'")
            .arg(runner->configDir(), profiles, file));
    QVERIFY2(setUp.succeeded(), qPrintable(setUp.describe()));
    auto fileText = [&file] {
        QFile read(file);
        return read.open(QIODevice::ReadOnly) ? read.readAll() : QByteArray("(unreadable)");
    };
    QCOMPARE(fileText(), before);
    const QString curl = QStringLiteral("curl -sS --cacert '%1' --noproxy '' --proxy http://127.0.0.1:3128 -o /dev/null "
                                        "-w '%2=%{http_code}\\n' %3")
                             .arg(pki.ca, QStringLiteral("%1"), upstream.url(QStringLiteral("/hello")));
    const QString agent = QStringLiteral("%1 request --allow-host %2 --reason 'fetch it' -- sh -c \"%3\"; "
                                         "echo \"REQUEST_STATUS=$?\"")
                              .arg(runner->install().moat(), a, curl.arg(QStringLiteral("SUCCESSOR")));

    GuiOnBus gui(runner);
    QString error;
    QVERIFY2(gui.start(&error), qPrintable(error));
    MoatdBus& bus = gui.bus;
    ApprovalQueue& queue = *gui.queue;
    ApprovalPrompt& prompt = *gui.prompt;
    prompt.setCountdownSeconds(120);
    prompt.setProfileDirs(profiles, QStringLiteral("/nonexistent"));

    const QStringList options{QStringLiteral("--profile"), QStringLiteral("gui-always"), QStringLiteral("--ro"),
                              runner->install().dir(), QStringLiteral("--ro"), pki.dir, QStringLiteral("--upstream-ca"),
                              pki.ca};
    const QString name = QStringLiteral("gui-profile-scope");
    auto session = bus.startSession(QStringList{QStringLiteral("--name"), name} + options, agent);
    QTRY_VERIFY2_WITH_TIMEOUT(prompt.isVisible(), session->output().constData(), 30000);
    QCOMPARE(queue.entries().at(0).profile, QStringLiteral("gui-always"));
    const QString rid = queue.entries().at(0).requestIds.first();
    // moatd takes "profile" only for an approval.
    QCOMPARE(gui.answerScoped(rid, false, QStringLiteral("profile")), QStringLiteral("org.moat.Error.InvalidArgument"));

    auto* always = prompt.findChild<QRadioButton*>(QStringLiteral("scopeProfile"));
    QVERIFY2(always->isEnabled(), qPrintable(always->toolTip()));
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 1000);
    const QString after = QString::fromLatin1(before) + QStringLiteral("allow_host = [\"%1\"]\n").arg(a);
    for (const bool write : {false, true}) {
        QTest::mouseClick(always, Qt::LeftButton, {}, QPoint(4, always->height() / 2));  // on its circle
        QVERIFY(always->isChecked());
        QTest::mouseClick(prompt.findChild<QPushButton*>(QStringLiteral("approve")), Qt::LeftButton);
        AllowRuleDialog* dialog = prompt.confirmation();
        QVERIFY(dialog != nullptr);
        QCOMPARE(dialog->previewText(), after);
        auto* buttons = dialog->findChild<QDialogButtonBox*>();
        QTest::mouseClick(write ? dialog->writeButton() : buttons->button(QDialogButtonBox::Cancel), Qt::LeftButton);
        QTRY_VERIFY(prompt.confirmation() == nullptr);
        if (!write) {
            // Cancelled: the file is as it was and the request still waits.
            QCOMPARE(fileText(), before);
            QTest::qWait(500);
            QCOMPARE(queue.pendingCount(), 1);
            QVERIFY(prompt.isVisible());
            QVERIFY2(!session->output().contains("REQUEST_STATUS"), session->output().constData());
        }
    }
    QTRY_VERIFY2_WITH_TIMEOUT(session->output().contains("EXIT="), session->output().constData(), 60000);
    QByteArray output = session->output();
    QVERIFY2(output.contains("REQUEST_STATUS=0") && output.contains("SUCCESSOR=200"), output.constData());
    QCOMPARE(QString::fromUtf8(fileText()), after);

    QString raw;
    const QString first = bus.session(name).value(QLatin1String("id")).toString();
    const QList<QJsonObject> decisions = decisionsOf(runner, bus, first, &raw);
    QVERIFY2(decisions.size() == 1, qPrintable(raw));
    QCOMPARE(decisions.first().value(QLatin1String("decision")).toString(), QStringLiteral("approved"));
    const QJsonObject by = decisions.first().value(QLatin1String("by")).toObject();
    QCOMPARE(by.value(QLatin1String("scope")).toString(), QStringLiteral("profile"));
    QCOMPARE(by.value(QLatin1String("profile")).toString(), QStringLiteral("gui-always"));
    QCOMPARE(by.value(QLatin1String("client")).toString(), QStringLiteral("gui"));
    QCOMPARE(by.value(QLatin1String("uid")).toInteger(), static_cast<qint64>(runner->account().uid()));

    // A new session of the profile, with no --allow-host of its own, reaches
    // the host at once: nothing is asked.
    const QString next = QStringLiteral("gui-profile-next");
    session = bus.startSession(QStringList{QStringLiteral("--name"), next} + options, curl.arg(QStringLiteral("NEXT")));
    QTRY_VERIFY2_WITH_TIMEOUT(session->output().contains("EXIT="), session->output().constData(), 60000);
    output = session->output();
    QVERIFY2(output.contains("NEXT=200") && output.contains("EXIT=0"), output.constData());
    QVERIFY(queue.entries().isEmpty());
    const QJsonArray flags = bus.session(next).value(QLatin1String("flags")).toArray();
    QVERIFY2(flags.contains(QStringLiteral("allow-host:") + a),
             QJsonDocument(flags).toJson(QJsonDocument::Compact).constData());
    QCOMPARE(upstream.requests().size(), 2);
}

// Run as root, the "user" rows above skip (the prompt lives in this
// process); a copy of this program runs them as the ordinary test account.
void ManagerApprovals::theUserRowsAsAnOrdinaryAccount()
{
    QString skip;
    const QString failed = rerunAsOrdinaryAccount(
        fixture_,
        {QStringLiteral("anAgentsRequestIsAnsweredInThePrompt"),
         QStringLiteral("anApprovalForTheSessionLetsTheSameRequestThroughLater"),
         QStringLiteral("anApprovalForTheProfileWritesTheHostForItsNextSessions")},
        &skip);
    if (!skip.isEmpty()) {
        QSKIP(qPrintable(skip));
    }
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

QTEST_MAIN(ManagerApprovals)
#include "tst_manager_approvals.moc"
