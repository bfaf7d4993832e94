// SPDX-License-Identifier: Apache-2.0
// "Open in terminal" on a real desktop's terms: another account cannot
// attach to a session's terminal even when every file mode lets it reach the
// socket (the relay's peer-uid check refuses it); and the Session view's
// button, on an X server (xvfb-run), starts a real xterm whose
// `moat-manager --attach` attaches to a real session started through moatd.

#include "main_window.h"
#include "moatd_connection.h"
#include "pty_process.h"
#include "session_launcher.h"
#include "session_list_model.h"
#include "session_view.h"
#include "terminal_relay.h"

#include "hostaccount.h"
#include "integrationfixture.h"
#include "moatdbus.h"

#include <QDBusConnection>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace moat::gui;

namespace {

// The command lines of the processes that name `text` in theirs: xterm and
// the client it runs.
QStringList processesNaming(const QString& text)
{
    QStringList found;
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (pid.toInt() > 0 && file.open(QIODevice::ReadOnly)) {
            const QString line = QString::fromLocal8Bit(file.readAll()).replace(QChar(0), QLatin1Char(' '));
            if (line.contains(text)) {
                found << line;
            }
        }
    }
    return found;
}

}  // namespace

class OpenInTerminalDesktop : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void anotherAccountIsRefused_data();
    void anotherAccountIsRefused();
    void theButtonOpensXtermOnTheSession();

private:
    IntegrationFixture fixture_;
    bool fixtureReady_ = false;
};

void OpenInTerminalDesktop::initTestCase()
{
    QString error;
    fixtureReady_ = fixture_.setUp(&error);
    if (!fixtureReady_) {
        qWarning("the integration fixture is not set up: %s", qPrintable(error));
    }
}

void OpenInTerminalDesktop::cleanupTestCase()
{
    fixture_.tearDown();
}

void OpenInTerminalDesktop::anotherAccountIsRefused_data()
{
    QTest::addColumn<bool>("modesOpened");
    // The socket as made: the directory's mode already keeps others out.
    QTest::newRow("modes as made") << false;
    // Every file mode opened: only the peer-uid check stands. Without it the
    // client would attach (and the test would time out waiting for 125).
    QTest::newRow("modes opened to everyone") << true;
}

void OpenInTerminalDesktop::anotherAccountIsRefused()
{
    QFETCH(bool, modesOpened);
    if (!IntegrationFixture::runningAsRoot()) {
        QSKIP("needs root to act as another account (run the suite as root)");
    }
    QString error;
    const std::optional<HostAccount> other = HostAccount::ensureTestUser(&error);
    QVERIFY2(other.has_value(), qPrintable(error));

    // A copy of the client the other account can run.
    QTemporaryDir programs;
    QVERIFY(::chmod(QFile::encodeName(programs.path()).constData(), 0755) == 0);
    const QString client = programs.filePath(QStringLiteral("moat-manager"));
    QVERIFY(QFile::copy(QStringLiteral(MOAT_MANAGER), client));
    QVERIFY(::chmod(QFile::encodeName(client).constData(), 0755) == 0);

    QTemporaryDir runtime;
    qputenv("XDG_RUNTIME_DIR", runtime.path().toUtf8());
    PtyProcess session;
    QByteArray shown;
    connect(&session, &PtyProcess::output, this, [&shown](const QByteArray& bytes) { shown += bytes; });
    QVERIFY2(session.start(QStringLiteral("/bin/sh"),
                           {QStringLiteral("-c"), QStringLiteral("echo private-output; read line; echo got:$line; "
                                                                 "sleep 30")},
                           QProcessEnvironment::systemEnvironment(), &error),
             qPrintable(error));
    QTRY_VERIFY(shown.contains("private-output"));
    TerminalRelay relay(&session, [&shown] { return shown; });
    QVERIFY2(relay.listen(&error), qPrintable(error));
    QSignalSpy refused(&relay, &TerminalRelay::clientRefused);
    QSignalSpy attached(&relay, &TerminalRelay::clientAttached);
    if (modesOpened) {
        for (const QString& path : {runtime.path(), relay.directory()}) {
            QVERIFY(::chmod(QFile::encodeName(path).constData(), 0777) == 0);
        }
        QVERIFY(::chmod(QFile::encodeName(relay.socketPath()).constData(), 0777) == 0);
    }

    QProcess intruder;
    const QStringList argv = other->commandLine({client, QStringLiteral("--attach"), relay.socketPath()});
    intruder.start(argv.first(), argv.mid(1));
    QVERIFY(intruder.waitForStarted());
    intruder.write("typed-by-another-account\n");
    QTRY_VERIFY_WITH_TIMEOUT(intruder.state() == QProcess::NotRunning, 15000);
    const QString said = QString::fromUtf8(intruder.readAllStandardError());
    const QByteArray got = intruder.readAllStandardOutput();
    QCOMPARE(intruder.exitCode(), 125);
    QVERIFY2(!got.contains("private-output"), got.constData());
    QVERIFY(attached.isEmpty());
    QVERIFY(!relay.hasClient());
    if (modesOpened) {
        QVERIFY2(said.contains(QLatin1String("refused the connection: this session belongs to another user")),
                 qPrintable(said));
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.first().first().toLongLong(), static_cast<qint64>(other->uid()));
    } else {
        QVERIFY2(said.contains(QLatin1String("cannot connect to")) && said.contains(QLatin1String("Permission denied")),
                 qPrintable(said));
    }
    QTest::qWait(200);
    QVERIFY2(!shown.contains("got:typed-by-another-account"), shown.constData());
    qunsetenv("XDG_RUNTIME_DIR");
}

void OpenInTerminalDesktop::theButtonOpensXtermOnTheSession()
{
    if (qEnvironmentVariableIsEmpty("DISPLAY")) {
        QSKIP("no X server (DISPLAY is not set): ctest runs this test under xvfb-run when it is installed");
    }
    const QString xterm = QStandardPaths::findExecutable(QStringLiteral("xterm"));
    if (xterm.isEmpty()) {
        QSKIP("xterm is not installed (scripts/install-deps.sh installs it)");
    }
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    QVERIFY2(fixtureReady_, "the integration fixture did not set up");
    AccountRunner* runner = IntegrationFixture::runningAsRoot() ? fixture_.root() : fixture_.user();
    QVERIFY(runner != nullptr);
    MoatdBus bus(runner);
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    const QProcessEnvironment environment = runner->environment(bus.environment());
    for (const QString& key : environment.keys()) {
        qputenv(key.toUtf8().constData(), environment.value(key).toUtf8());
    }
    // A session started from the window, as the New sandbox dialog does.
    RunChoices choices;
    choices.name = QStringLiteral("in-a-terminal");
    choices.command = {QStringLiteral("sh"), QStringLiteral("-c"),
                       QStringLiteral("echo from-the-sandbox; read line; echo got:$line; sleep 60")};
    choices.workspace = runner->workspace();
    MoatdConnection moatd(QDBusConnection::connectToBus(bus.address(), QStringLiteral("open-in-terminal")));
    MainWindow window(&moatd);
    window.launcher()->setMoatProgram(fixture_.install().moat());
    moatd.connectNow();
    QTRY_VERIFY_WITH_TIMEOUT(moatd.isLinked(), 30000);
    QVERIFY2(window.launcher()->start(choices, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(window.launcher()->outputSoFar(choices.name).contains("from-the-sandbox"), 30000);
    const SessionRow* row = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((row = [&]() -> const SessionRow* {
                                 for (const SessionRow& r : window.sessions()->rows()) {
                                     if (r.name == choices.name) {
                                         return &r;
                                     }
                                 }
                                 return nullptr;
                             }()) != nullptr,
                             30000);
    const QString id = row->id;
    window.openSession(id);
    auto* view = qobject_cast<SessionView*>(window.tabs()->currentWidget());
    QVERIFY(view != nullptr);
    view->setAttachProgram(QStringLiteral(MOAT_MANAGER));
    QPushButton* button = view->openInTerminalButton();
    QVERIFY2(button->isEnabled(), qPrintable(button->toolTip()));

    // No emulator anywhere: the view says what to install.
    const QByteArray path = qgetenv("PATH");
    QTemporaryDir empty;
    qputenv("PATH", empty.path().toUtf8());
    qunsetenv("TERMINAL");
    QTest::mouseClick(button, Qt::LeftButton);
    qputenv("PATH", path);
    QVERIFY2(view->terminalNote()->text().contains(QLatin1String("No terminal emulator was found")),
             qPrintable(view->terminalNote()->text()));

    // xterm, chosen by $TERMINAL: its client attaches to the session.
    qputenv("TERMINAL", "xterm");
    TerminalRelay* relay = nullptr;
    connect(view, &SessionView::terminalOpened, this, [&relay](TerminalRelay* opened) { relay = opened; });
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY2(relay != nullptr, qPrintable(view->terminalNote()->text()));
    QTRY_VERIFY_WITH_TIMEOUT(relay->hasClient(), 20000);
    QTRY_VERIFY(view->terminalNote()->text().contains(QLatin1String("Attached in a terminal window")));
    const QString directory = relay->directory();
    const QString socket = relay->socketPath();
    QVERIFY(QFileInfo::exists(directory));
    // A real xterm runs the client.
    const QString running = processesNaming(socket).join(QLatin1Char('\n'));
    QVERIFY2(running.contains(QLatin1String("xterm")) && running.contains(QLatin1String("--attach")),
             qPrintable(running));

    // The session's end reaches the client (which exits, closing xterm) and
    // takes the socket's directory with it.
    QSignalSpy ended(window.launcher(), &SessionLauncher::finished);
    moatd.stopSession(id, [](const MoatdAnswer&) {});
    QTRY_VERIFY_WITH_TIMEOUT(!ended.isEmpty(), 30000);
    QVERIFY(!QFileInfo::exists(directory));
    QTRY_VERIFY_WITH_TIMEOUT(processesNaming(socket).isEmpty(), 10000);
    QVERIFY(!button->isEnabled());
    QVERIFY(button->toolTip().contains(QLatin1String("ended")));
    qunsetenv("TERMINAL");
}

QTEST_MAIN(OpenInTerminalDesktop)
#include "tst_open_in_terminal_desktop.moc"
