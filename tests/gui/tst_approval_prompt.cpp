// SPDX-License-Identifier: Apache-2.0
// The approval prompt, its queue and the tray without moatd: requests are
// fed in the JSON shapes moatd's ApprovalRequested / ListApprovals /
// ApprovalDecided carry (helper/approval_broker.cpp), answers are observed
// through ApprovalQueue::answerSent (with no connection, nothing else
// receives them). Offscreen platform.

#include "allow_rule_dialog.h"
#include "approval_prompt.h"
#include "approval_queue.h"
#include "approval_tray.h"
#include "untrusted_text.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWindow>

#include "policy/profile.h"

using moat::gui::AllowRuleDialog;
using moat::gui::ApprovalPrompt;
using moat::gui::ApprovalQueue;
using moat::gui::ApprovalScope;
using moat::gui::ApprovalTray;

namespace {

QString compact(const QJsonObject& object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QString expiresIn(int seconds)
{
    return QDateTime::currentDateTimeUtc().addSecs(seconds).toString(Qt::ISODate);
}

// A `moat request --allow-host HOST` as moatd lists it.
QJsonObject successorRequest(const QString& rid, const QString& session, const QString& host,
                             const QString& reason = QStringLiteral("fetch the docs"), int expires = 300)
{
    return {{QStringLiteral("id"), rid},
            {QStringLiteral("session"), session},
            {QStringLiteral("kind"), QStringLiteral("successor")},
            {QStringLiteral("flags"), QJsonArray{QStringLiteral("--allow-host"), host}},
            {QStringLiteral("command"), QJsonArray{QStringLiteral("sh"), QStringLiteral("next.sh")}},
            {QStringLiteral("reason"), reason},
            {QStringLiteral("requested"), expiresIn(0)},
            {QStringLiteral("expires"), expiresIn(expires)},
            {QStringLiteral("policy"), QStringLiteral("allow_host is ask")}};
}

// The same from a session that runs with the profile `profile`, asking for `flags`.
QJsonObject profiledRequest(const QString& rid, const QString& profile, const QStringList& flags)
{
    QJsonObject request = successorRequest(rid, QStringLiteral("s1"), QStringLiteral("x.org"));
    request.insert(QStringLiteral("profile"), profile);
    request.insert(QStringLiteral("flags"), QJsonArray::fromStringList(flags));
    return request;
}

bool writeFile(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(unreadable)");
}

// A request an `ask` HTTP rule holds, as moatd lists it.
QJsonObject httpRequest(const QString& rid, const QString& session, const QString& path)
{
    return {{QStringLiteral("id"), rid},
            {QStringLiteral("session"), session},
            {QStringLiteral("kind"), QStringLiteral("http")},
            {QStringLiteral("http"), QJsonObject{{QStringLiteral("method"), QStringLiteral("POST")},
                                                 {QStringLiteral("host"), QStringLiteral("api.example.org")},
                                                 {QStringLiteral("port"), 443},
                                                 {QStringLiteral("path"), path},
                                                 {QStringLiteral("rule"), QStringLiteral("ask POST api.example.org/**")}}},
            {QStringLiteral("requested"), expiresIn(0)},
            {QStringLiteral("expires"), expiresIn(300)}};
}

// As moatd's ApprovalRequested delivers it.
void feed(ApprovalQueue& queue, const QJsonObject& request)
{
    queue.addRequest(request.value(QLatin1String("id")).toString(), compact(request));
}

QString decided(const QString& rid, const QString& decision)
{
    return compact({{QStringLiteral("rid"), rid}, {QStringLiteral("decision"), decision}});
}

template <typename T>
T* child(ApprovalPrompt& prompt, const char* name)
{
    T* found = prompt.findChild<T*>(QString::fromLatin1(name));
    if (!found) {
        qFatal("the prompt has no %s", name);
    }
    return found;
}

int promptWindows()
{
    int count = 0;
    for (QWidget* widget : QApplication::topLevelWidgets()) {
        if (qobject_cast<ApprovalPrompt*>(widget) && widget->isVisible()) {
            ++count;
        }
    }
    return count;
}

}  // namespace

class ApprovalPromptTest : public QObject
{
    Q_OBJECT

private slots:
    void theSameRequestFromTheSameSessionIsMerged();
    void aRequestDecidedElsewhereLeavesTheQueue();
    void listApprovalsReplacesWhatTheQueueHeld();
    void manyRequestsShareOneWindow();
    void theWindowAppearsWithoutTakingTheFocus();
    void buttonsIgnoreKeysAndClicksInTheFirstSecond();
    void aChangedRequestDisarmsTheButtons();
    void theCountdownEndsInDeny();
    void theCountdownPausesOnInteraction();
    void theCountdownNeverOutlastsMoatdsDeadline();
    void theReasonIsPlainQuotedEscapedText_data();
    void theReasonIsPlainQuotedEscapedText();
    void aLongReasonIsCutAndSaysSo();
    void sessionScopeOnlyForHttpAsks();
    void profileScopeOnlyWhereAProfileCanHoldIt_data();
    void profileScopeOnlyWhereAProfileCanHoldIt();
    void profileScopeApprovesOnlyOnceTheFileIsWritten();
    void profileScopeWritesNothingForAChangedFileOrAGoneRequest();
    void everyControlHasAnAccessibleName();
    void theTrayCountsWaitingEntries();
};

void ApprovalPromptTest::theSameRequestFromTheSameSessionIsMerged()
{
    ApprovalQueue queue(nullptr);
    QSignalSpy added(&queue, &ApprovalQueue::entryAdded);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org")));
    feed(queue, successorRequest(QStringLiteral("r-000000000002"), QStringLiteral("s1"), QStringLiteral("a.org")));
    // Another host, or the same host from another session: entries of their own.
    feed(queue, successorRequest(QStringLiteral("r-000000000003"), QStringLiteral("s1"), QStringLiteral("b.org")));
    feed(queue, successorRequest(QStringLiteral("r-000000000004"), QStringLiteral("s2"), QStringLiteral("a.org")));
    feed(queue, httpRequest(QStringLiteral("h-000000000005"), QStringLiteral("s1"), QStringLiteral("/up")));
    feed(queue, httpRequest(QStringLiteral("h-000000000006"), QStringLiteral("s1"), QStringLiteral("/up")));
    // The same signal twice (listed and signalled): counted once.
    feed(queue, httpRequest(QStringLiteral("h-000000000006"), QStringLiteral("s1"), QStringLiteral("/up")));
    QCOMPARE(added.count(), 4);
    QCOMPARE(queue.entries().size(), 4);
    QCOMPARE(queue.pendingCount(), 4);
    QCOMPARE(queue.entries().at(0).requestIds,
             (QStringList{QStringLiteral("r-000000000001"), QStringLiteral("r-000000000002")}));
    QCOMPARE(queue.entries().at(3).requestIds,
             (QStringList{QStringLiteral("h-000000000005"), QStringLiteral("h-000000000006")}));

    // One answer answers every merged request.
    QSignalSpy sent(&queue, &ApprovalQueue::answerSent);
    queue.answer(queue.entries().at(0).key, true, ApprovalScope::Once);
    QCOMPARE(sent.count(), 1);
    QCOMPARE(sent.at(0).at(0).toStringList(),
             (QStringList{QStringLiteral("r-000000000001"), QStringLiteral("r-000000000002")}));
    QCOMPARE(sent.at(0).at(1).toBool(), true);
    QCOMPARE(queue.pendingCount(), 3);
}

void ApprovalPromptTest::aRequestDecidedElsewhereLeavesTheQueue()
{
    ApprovalQueue queue(nullptr);
    QSignalSpy removed(&queue, &ApprovalQueue::entryRemoved);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org")));
    feed(queue, successorRequest(QStringLiteral("r-000000000002"), QStringLiteral("s1"), QStringLiteral("a.org")));
    // `moat approve` on one of two merged requests: the entry stays for the other.
    queue.removeDecided(QStringLiteral("r-000000000001"), decided(QStringLiteral("r-000000000001"), QStringLiteral("approved")));
    QCOMPARE(queue.entries().size(), 1);
    QCOMPARE(removed.count(), 0);
    // moatd's timeout on the other.
    queue.removeDecided(QStringLiteral("r-000000000002"), decided(QStringLiteral("r-000000000002"), QStringLiteral("timed_out")));
    QVERIFY(queue.entries().isEmpty());
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.at(0).at(1).toString(), QStringLiteral("timed_out"));
    // A decision on an unknown request changes nothing.
    queue.removeDecided(QStringLiteral("r-00000000000f"), decided(QStringLiteral("r-00000000000f"), QStringLiteral("denied")));
    QCOMPARE(removed.count(), 1);
}

void ApprovalPromptTest::listApprovalsReplacesWhatTheQueueHeld()
{
    ApprovalQueue queue(nullptr);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org")));
    // After a reconnect moatd holds only a new one: the old one was decided meanwhile.
    const QJsonArray listed{httpRequest(QStringLiteral("h-000000000009"), QStringLiteral("s3"), QStringLiteral("/x"))};
    queue.resetFrom(QString::fromUtf8(QJsonDocument(listed).toJson()));
    QCOMPARE(queue.entries().size(), 1);
    QCOMPARE(queue.entries().at(0).requestIds, QStringList{QStringLiteral("h-000000000009")});
}

void ApprovalPromptTest::manyRequestsShareOneWindow()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    QVERIFY(!prompt.isVisible());
    for (int i = 1; i <= 5; ++i) {
        const QString rid = QStringLiteral("r-00000000000%1").arg(i);
        feed(queue, successorRequest(rid, QStringLiteral("s%1").arg(i), QStringLiteral("a.org")));
    }
    QVERIFY(prompt.isVisible());
    QCOMPARE(promptWindows(), 1);
    auto* list = child<QListWidget>(prompt, "queue");
    QCOMPARE(list->count(), 5);
    QVERIFY(list->isVisible());
    QCOMPARE(prompt.currentKey(), queue.entries().at(0).key);
    // All decided elsewhere: the window goes away.
    for (int i = 1; i <= 5; ++i) {
        const QString rid = QStringLiteral("r-00000000000%1").arg(i);
        queue.removeDecided(rid, decided(rid, QStringLiteral("approved")));
    }
    QVERIFY(!prompt.isVisible());
}

void ApprovalPromptTest::theWindowAppearsWithoutTakingTheFocus()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org")));
    QVERIFY(prompt.isVisible());
    QVERIFY(prompt.testAttribute(Qt::WA_ShowWithoutActivating));
    QVERIFY(prompt.windowHandle()->flags().testFlag(Qt::WindowDoesNotAcceptFocus));
    // What the window manager reads. (The offscreen platform gives the focus
    // to every window it shows, whatever these say: where the focus went is
    // not a thing this platform can show.)
    QVERIFY(prompt.windowFlags().testFlag(Qt::WindowDoesNotAcceptFocus));
    // The user clicks into it: from then on it may take the focus.
    QTest::mouseClick(child<QLabel>(prompt, "what"), Qt::LeftButton);
    QVERIFY(!prompt.windowHandle()->flags().testFlag(Qt::WindowDoesNotAcceptFocus));
}

void ApprovalPromptTest::buttonsIgnoreKeysAndClicksInTheFirstSecond()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    QSignalSpy sent(&queue, &ApprovalQueue::answerSent);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org")));
    auto* approve = child<QPushButton>(prompt, "approve");
    auto* deny = child<QPushButton>(prompt, "deny");
    QVERIFY(!prompt.isArmed());
    QVERIFY(!approve->isDefault() && !approve->autoDefault() && !deny->isDefault());
    QTest::mouseClick(approve, Qt::LeftButton);
    QTest::keyClick(approve, Qt::Key_Space);
    QTest::keyClick(&prompt, Qt::Key_Return);
    QTest::keyClick(&prompt, Qt::Key_A, Qt::AltModifier);
    QTest::mouseClick(deny, Qt::LeftButton);
    QCOMPARE(sent.count(), 0);
    // After the first second the same click answers.
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 500);
    QTest::keyClick(&prompt, Qt::Key_Return);  // still no default button
    QCOMPARE(sent.count(), 0);
    QTest::mouseClick(approve, Qt::LeftButton);
    QCOMPARE(sent.count(), 1);
    QCOMPARE(sent.at(0).at(1).toBool(), true);
    QCOMPARE(sent.at(0).at(2).value<ApprovalScope>(), ApprovalScope::Once);
    // Answered: off the screen while moatd decides.
    QVERIFY(!prompt.isVisible());
}

void ApprovalPromptTest::aChangedRequestDisarmsTheButtons()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org")));
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 500);
    // The same request again with other words: what is shown changed.
    feed(queue, successorRequest(QStringLiteral("r-000000000002"), QStringLiteral("s1"), QStringLiteral("a.org"),
                                              QStringLiteral("other words")));
    QVERIFY(!prompt.isArmed());
    QSignalSpy sent(&queue, &ApprovalQueue::answerSent);
    QTest::mouseClick(child<QPushButton>(prompt, "approve"), Qt::LeftButton);
    QCOMPARE(sent.count(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 500);
}

void ApprovalPromptTest::theCountdownEndsInDeny()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    prompt.setCountdownSeconds(1);
    QSignalSpy sent(&queue, &ApprovalQueue::answerSent);
    feed(queue, httpRequest(QStringLiteral("h-000000000001"), QStringLiteral("s1"), QStringLiteral("/up")));
    QVERIFY(child<QLabel>(prompt, "countdown")->text().contains(QLatin1String("1")));
    QTRY_COMPARE_WITH_TIMEOUT(sent.count(), 1, 3000);
    QCOMPARE(sent.at(0).at(0).toStringList(), QStringList{QStringLiteral("h-000000000001")});
    QCOMPARE(sent.at(0).at(1).toBool(), false);  // deny, never approve
    QCOMPARE(sent.at(0).at(2).value<ApprovalScope>(), ApprovalScope::Once);
}

void ApprovalPromptTest::theCountdownPausesOnInteraction()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    prompt.setCountdownSeconds(1);
    QSignalSpy sent(&queue, &ApprovalQueue::answerSent);
    feed(queue, httpRequest(QStringLiteral("h-000000000001"), QStringLiteral("s1"), QStringLiteral("/up")));
    QVERIFY(!prompt.isCountdownPaused());
    // The user reads the reason, clicks the scope: the countdown stops.
    QTest::mouseClick(child<QRadioButton>(prompt, "scopeSession"), Qt::LeftButton);
    QVERIFY(prompt.isCountdownPaused());
    const qint64 left = prompt.remainingMs();
    QTest::qWait(1500);
    QCOMPARE(sent.count(), 0);
    QCOMPARE(prompt.remainingMs(), left);
    QVERIFY(child<QLabel>(prompt, "countdown")->text().contains(QLatin1String("paused")));
}

void ApprovalPromptTest::theCountdownNeverOutlastsMoatdsDeadline()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    prompt.setCountdownSeconds(600);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org"),
                                              QStringLiteral("x"), 20));
    QVERIFY2(prompt.remainingMs() <= 20000, qPrintable(QString::number(prompt.remainingMs())));
}

void ApprovalPromptTest::theReasonIsPlainQuotedEscapedText_data()
{
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("shown");
    QTest::newRow("markup") << QStringLiteral("<b>trust me</b><img src=x><a href='http://e'>ok</a>")
                            << QStringLiteral("“<b>trust me</b><img src=x><a href='http://e'>ok</a>”");
    QTest::newRow("terminal escape") << QStringLiteral("fine\x1b[2J\x1b[31mAPPROVED")
                                     << QStringLiteral("“fine\\x1b[2J\\x1b[31mAPPROVED”");
    QTest::newRow("newlines") << QStringLiteral("a\nmoat: approved by root\r")
                              << QStringLiteral("“a\\nmoat: approved by root\\r”");
    QTest::newRow("bidi override") << QString::fromUtf8("safe \u202egnp.exe")
                                   << QString::fromUtf8("“safe \\u{202e}gnp.exe”");
    QTest::newRow("zero width") << QString::fromUtf8("a\u200bb") << QString::fromUtf8("“a\\u{200b}b”");
    QTest::newRow("backslash") << QStringLiteral("C:\\x1b") << QStringLiteral("“C:\\\\x1b”");
}

void ApprovalPromptTest::theReasonIsPlainQuotedEscapedText()
{
    QFETCH(QString, reason);
    QFETCH(QString, shown);
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org"), reason));
    auto* label = child<QLabel>(prompt, "reason");
    QCOMPARE(label->textFormat(), Qt::PlainText);
    QCOMPARE(label->text(), shown);
    QVERIFY(!label->openExternalLinks());
    // Everything else the agent wrote is plain too.
    for (const char* name : {"heading", "what", "command", "policy"}) {
        QCOMPARE(child<QLabel>(prompt, name)->textFormat(), Qt::PlainText);
    }
}

void ApprovalPromptTest::aLongReasonIsCutAndSaysSo()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org"),
                                              QString(2000, QLatin1Char('x'))));
    const QString text = child<QLabel>(prompt, "reason")->text();
    QVERIFY2(text.size() < 700, qPrintable(QString::number(text.size())));
    QVERIFY2(text.contains(QLatin1String("1400 more characters")), qPrintable(text));
}

void ApprovalPromptTest::sessionScopeOnlyForHttpAsks()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    QSignalSpy sent(&queue, &ApprovalQueue::answerSent);
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org")));
    auto* session = child<QRadioButton>(prompt, "scopeSession");
    auto* profile = child<QRadioButton>(prompt, "scopeProfile");
    QVERIFY(!session->isEnabled());
    QVERIFY(!session->toolTip().isEmpty());
    QVERIFY(!profile->isEnabled());
    QVERIFY(!profile->toolTip().isEmpty());
    queue.removeDecided(QStringLiteral("r-000000000001"), decided(QStringLiteral("r-000000000001"), QStringLiteral("denied")));

    feed(queue, httpRequest(QStringLiteral("h-000000000002"), QStringLiteral("s1"), QStringLiteral("/up")));
    QVERIFY(session->isEnabled());
    QVERIFY(child<QLabel>(prompt, "what")->text().contains(QLatin1String("POST api.example.org:443 /up")));
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 500);
    QTest::mouseClick(session, Qt::LeftButton, {}, QPoint(4, session->height() / 2));  // on its circle
    QVERIFY(session->isChecked());
    QTest::mouseClick(child<QPushButton>(prompt, "approve"), Qt::LeftButton);
    QCOMPARE(sent.count(), 1);
    QCOMPARE(sent.at(0).at(2).value<ApprovalScope>(), ApprovalScope::Session);

    // A deny has no scope (moatd refuses one): "This session" checked, Deny
    // answers this request only.
    feed(queue, httpRequest(QStringLiteral("h-000000000003"), QStringLiteral("s1"), QStringLiteral("/down")));
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 500);
    QTest::mouseClick(session, Qt::LeftButton, {}, QPoint(4, session->height() / 2));
    QVERIFY(session->isChecked());
    QTest::mouseClick(child<QPushButton>(prompt, "deny"), Qt::LeftButton);
    QCOMPARE(sent.count(), 2);
    QCOMPARE(sent.at(1).at(1).toBool(), false);
    QCOMPARE(sent.at(1).at(2).value<ApprovalScope>(), ApprovalScope::Once);
}

// "Always for this profile" is offered for --allow-host requests from a
// session whose profile is a file of the user's; otherwise the radio is
// disabled and its tooltip says why.
void ApprovalPromptTest::profileScopeOnlyWhereAProfileCanHoldIt_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<bool>("http");
    QTest::addColumn<QString>("why");  // empty: offered

    const QStringList host{QStringLiteral("--allow-host"), QStringLiteral("a.org:443")};
    QTest::newRow("a user profile") << QStringLiteral("work") << host << false << QString();
    QTest::newRow("two hosts") << QStringLiteral("work") << (host + QStringList{QStringLiteral("--allow-host"), QStringLiteral("*.b.org")})
                               << false << QString();
    QTest::newRow("sudo") << QStringLiteral("work") << (host + QStringList{QStringLiteral("--sudo")}) << false
                          << QStringLiteral("Only --allow-host can be approved always");
    QTest::newRow("docker") << QStringLiteral("work") << QStringList{QStringLiteral("--docker")} << false
                            << QStringLiteral("a profile cannot grant --sudo or --docker");
    QTest::newRow("net open") << QStringLiteral("work") << QStringList{QStringLiteral("--net"), QStringLiteral("open")} << false
                              << QStringLiteral("does not make --net open permanent");
    QTest::newRow("an ask rule") << QStringLiteral("work") << QStringList() << true << QStringLiteral("An ask rule holds this request");
    QTest::newRow("no profile") << QStringLiteral("default") << host << false << QStringLiteral("This session runs without a profile");
    QTest::newRow("moatd names none") << QStringLiteral("") << host << false << QStringLiteral("did not say which profile");
    QTest::newRow("shipped, no user copy") << QStringLiteral("shipped") << host << false << QStringLiteral("is a profile moat ships");
    QTest::newRow("file gone") << QStringLiteral("gone") << host << false << QStringLiteral("no longer exists");
    QTest::newRow("not a name") << QStringLiteral("../work") << host << false << QStringLiteral("is not a name");
}

void ApprovalPromptTest::profileScopeOnlyWhereAProfileCanHoldIt()
{
    QFETCH(QString, profile);
    QFETCH(QStringList, flags);
    QFETCH(bool, http);
    QFETCH(QString, why);
    QTemporaryDir user;
    QTemporaryDir builtin;
    QVERIFY(writeFile(user.filePath(QStringLiteral("work.toml")), "description = \"work\"\n"));
    QVERIFY(writeFile(builtin.filePath(QStringLiteral("shipped.toml")), "description = \"shipped\"\n"));
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    prompt.setProfileDirs(user.path(), builtin.path());
    QJsonObject request = http ? httpRequest(QStringLiteral("h-000000000001"), QStringLiteral("s1"), QStringLiteral("/up"))
                               : profiledRequest(QStringLiteral("r-000000000001"), profile, flags);
    request.insert(QStringLiteral("profile"), profile);
    feed(queue, request);
    auto* radio = child<QRadioButton>(prompt, "scopeProfile");
    QCOMPARE(radio->isEnabled(), why.isEmpty());
    QVERIFY2(radio->toolTip().contains(why), qPrintable(radio->toolTip()));
    if (why.isEmpty()) {
        QVERIFY2(radio->toolTip().contains(QStringLiteral("--profile ") + profile), qPrintable(radio->toolTip()));
    }
}

void ApprovalPromptTest::profileScopeApprovesOnlyOnceTheFileIsWritten()
{
    QTemporaryDir user;
    const QString file = user.filePath(QStringLiteral("work.toml"));
    const QByteArray before = "# mine\ndescription = \"work\"\nallow_host = [\"pypi.org\"]  # keep\n";
    QVERIFY(writeFile(file, before));
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    prompt.setProfileDirs(user.path(), QStringLiteral("/nonexistent"));
    QSignalSpy sent(&queue, &ApprovalQueue::answerSent);
    feed(queue, profiledRequest(QStringLiteral("r-000000000001"), QStringLiteral("work"),
                                {QStringLiteral("--allow-host"), QStringLiteral("a.org:443"), QStringLiteral("--allow-host"),
                                 QStringLiteral("*.b.org")}));
    auto* radio = child<QRadioButton>(prompt, "scopeProfile");
    QVERIFY(radio->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 500);
    const QString after = QStringLiteral("# mine\ndescription = \"work\"\nallow_host = [\"pypi.org\", \"a.org:443\", "
                                         "\"*.b.org\"]  # keep\n");
    for (const bool write : {false, true}) {
        QTest::mouseClick(radio, Qt::LeftButton, {}, QPoint(4, radio->height() / 2));  // on its circle
        QVERIFY(radio->isChecked());
        QTest::mouseClick(child<QPushButton>(prompt, "approve"), Qt::LeftButton);
        // Nothing is answered yet: the file's new text is shown first, for
        // the session's profile only.
        QCOMPARE(sent.count(), 0);
        AllowRuleDialog* dialog = prompt.confirmation();
        QVERIFY(dialog != nullptr);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->previewText(), after);
        QCOMPARE(dialog->profileName(), QStringLiteral("work"));
        QVERIFY(!dialog->findChild<QComboBox*>()->isEnabled());
        QVERIFY2(dialog->message().contains(file), qPrintable(dialog->message()));
        auto* buttons = dialog->findChild<QDialogButtonBox*>();
        QTest::mouseClick(write ? dialog->writeButton() : buttons->button(QDialogButtonBox::Cancel), Qt::LeftButton);
        QTRY_VERIFY(prompt.confirmation() == nullptr);
        if (!write) {
            // Cancelled: nothing written, nothing answered, the request waits.
            QCOMPARE(sent.count(), 0);
            QCOMPARE(readFile(file), before);
            QVERIFY(prompt.isVisible());
            QCOMPARE(queue.pendingCount(), 1);
            QVERIFY2(child<QLabel>(prompt, "status")->text().contains(QLatin1String("Nothing was written")),
                     qPrintable(child<QLabel>(prompt, "status")->text()));
        }
    }
    // Written, then approved with the scope "profile".
    QCOMPARE(QString::fromUtf8(readFile(file)), after);
    QCOMPARE(sent.count(), 1);
    QCOMPARE(sent.at(0).at(1).toBool(), true);
    QCOMPARE(sent.at(0).at(2).value<ApprovalScope>(), ApprovalScope::Profile);
    // As `moat run --profile work` reads it.
    const auto loaded = moat::Profile::load("work", user.path().toStdString(), "/nonexistent");
    QVERIFY(loaded);
    QCOMPARE(loaded->flags.allowHosts, (std::vector<std::string>{"pypi.org", "a.org:443", "*.b.org"}));
}

void ApprovalPromptTest::profileScopeWritesNothingForAChangedFileOrAGoneRequest()
{
    QTemporaryDir user;
    const QString file = user.filePath(QStringLiteral("work.toml"));
    QVERIFY(writeFile(file, "description = \"work\"\n"));
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    prompt.setProfileDirs(user.path(), QStringLiteral("/nonexistent"));
    QSignalSpy sent(&queue, &ApprovalQueue::answerSent);
    const QString rid = QStringLiteral("r-000000000001");
    feed(queue, profiledRequest(rid, QStringLiteral("work"), {QStringLiteral("--allow-host"), QStringLiteral("a.org")}));
    auto* radio = child<QRadioButton>(prompt, "scopeProfile");
    QTRY_VERIFY_WITH_TIMEOUT(prompt.isArmed(), ApprovalPrompt::kArmMs + 500);
    QTest::mouseClick(radio, Qt::LeftButton, {}, QPoint(4, radio->height() / 2));
    QTest::mouseClick(child<QPushButton>(prompt, "approve"), Qt::LeftButton);
    AllowRuleDialog* dialog = prompt.confirmation();
    QVERIFY(dialog != nullptr);
    // The file changes after the preview: the text shown is not what would
    // be written, so nothing is, and nothing is approved.
    const QByteArray edited = "description = \"work, edited\"\n";
    QVERIFY(writeFile(file, edited));
    QTest::mouseClick(dialog->writeButton(), Qt::LeftButton);
    QVERIFY(prompt.confirmation() == dialog);
    QVERIFY2(dialog->message().contains(QLatin1String("changed meanwhile")), qPrintable(dialog->message()));
    QCOMPARE(readFile(file), edited);
    QCOMPARE(sent.count(), 0);
    // A file that no longer parses: the write is refused, and says why.
    QVERIFY(writeFile(file, "description = \"work\n"));
    dialog->setProfileName(QStringLiteral("work"));
    QVERIFY(!dialog->writeButton()->isEnabled());
    QVERIFY2(dialog->message().contains(QLatin1String("not valid TOML")), qPrintable(dialog->message()));
    QVERIFY(writeFile(file, edited));
    dialog->setProfileName(QStringLiteral("work"));
    QVERIFY(dialog->writeButton()->isEnabled());
    // moatd decides the request (it timed out) while the dialog is open: the
    // dialog closes without writing.
    queue.removeDecided(rid, decided(rid, QStringLiteral("timed_out")));
    QTRY_VERIFY(prompt.confirmation() == nullptr);
    QCOMPARE(readFile(file), edited);
    QCOMPARE(sent.count(), 0);
}

void ApprovalPromptTest::everyControlHasAnAccessibleName()
{
    ApprovalQueue queue(nullptr);
    ApprovalPrompt prompt(&queue);
    feed(queue, httpRequest(QStringLiteral("h-000000000002"), QStringLiteral("s1"), QStringLiteral("/up")));
    const auto widgets = prompt.findChildren<QWidget*>();
    int controls = 0;
    for (QWidget* widget : widgets) {
        if (widget->focusPolicy() == Qt::NoFocus || widget->objectName().startsWith(QLatin1String("qt_"))) {
            continue;
        }
        bool insideList = false;
        for (QWidget* above = widget->parentWidget(); above; above = above->parentWidget()) {
            insideList = insideList || qobject_cast<QListWidget*>(above) != nullptr;
        }
        if (insideList) {
            continue;  // the list's own viewport and scroll bars
        }
        ++controls;
        QVERIFY2(!widget->accessibleName().isEmpty(),
                 qPrintable(QStringLiteral("%1 (%2) has no accessible name")
                                .arg(widget->objectName(), QString::fromLatin1(widget->metaObject()->className()))));
    }
    QVERIFY(controls >= 8);
    // Tab reaches the scopes, Deny and Approve.
    QCOMPARE(child<QRadioButton>(prompt, "scopeSession")->nextInFocusChain(),
             child<QRadioButton>(prompt, "scopeProfile"));
    QWidget* next = child<QRadioButton>(prompt, "scopeProfile")->nextInFocusChain();
    QCOMPARE(next, child<QPushButton>(prompt, "deny"));
    QCOMPARE(next->nextInFocusChain(), child<QPushButton>(prompt, "approve"));
}

void ApprovalPromptTest::theTrayCountsWaitingEntries()
{
    ApprovalQueue queue(nullptr);
    ApprovalTray tray(&queue, QDBusConnection(QStringLiteral("none")));
    QVERIFY(tray.toolTip().contains(QLatin1String("no approval")));
    feed(queue, successorRequest(QStringLiteral("r-000000000001"), QStringLiteral("s1"), QStringLiteral("a.org")));
    feed(queue, successorRequest(QStringLiteral("r-000000000002"), QStringLiteral("s1"), QStringLiteral("a.org")));
    feed(queue, successorRequest(QStringLiteral("r-000000000003"), QStringLiteral("s2"), QStringLiteral("a.org")));
    QVERIFY2(tray.toolTip().contains(QLatin1String("2 approval")), qPrintable(tray.toolTip()));
    queue.removeDecided(QStringLiteral("r-000000000003"), decided(QStringLiteral("r-000000000003"), QStringLiteral("denied")));
    QVERIFY2(tray.toolTip().contains(QLatin1String("1 approval")), qPrintable(tray.toolTip()));
}

QTEST_MAIN(ApprovalPromptTest)
#include "tst_approval_prompt.moc"
