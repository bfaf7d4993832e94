// SPDX-License-Identifier: Apache-2.0
// "Open in terminal": a session's terminal, held by moat-manager
// (PtyProcess), lent through TerminalRelay to `moat-manager --attach SOCKET`
// running on a real pseudo-terminal of its own (another PtyProcess plays the
// user's terminal emulator): typing reaches the program, its output comes
// back (the output so far first), the window size and a resize reach it, the
// client exits with the program's status and leaves its terminal as it found
// it; a second client takes over; a missing socket is exit 125 without any
// display; the socket is private and goes with the session, and what a
// crashed application left is removed by the next relay. And which
// terminal emulator runs it, with which argv.

#include "attach_leftovers.h"
#include "moatd_connection.h"
#include "pty_process.h"
#include "session_launcher.h"
#include "session_view.h"
#include "terminal_emulator.h"
#include "terminal_relay.h"

#include <QDBusConnection>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace moat::gui;

namespace {

// A program on a terminal of its own, with what it has shown so far.
struct Terminal {
    PtyProcess process;
    QByteArray shown;
    int status = -1;

    Terminal()
    {
        QObject::connect(&process, &PtyProcess::output, &process, [this](const QByteArray& bytes) { shown += bytes; });
        QObject::connect(&process, &PtyProcess::finished, &process, [this](int exitStatus) { status = exitStatus; });
    }
    bool start(const QStringList& argv, QString* error, int rows = 40, int columns = 120)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TERM"), QStringLiteral("xterm"));
        return process.start(argv.first(), argv.mid(1), environment, error, {}, rows, columns);
    }
    bool ended() const { return status >= 0; }
};

// The user's terminal running the client, then `stty -a` to show the mode
// the client left the terminal in.
QStringList clientInItsTerminal(const QString& socket)
{
    return {QStringLiteral("/bin/sh"), QStringLiteral("-c"),
            QStringLiteral("\"$0\" --attach \"$1\"; status=$?; stty -a; exit $status"),
            QStringLiteral(MOAT_MANAGER), socket};
}

mode_t modeOf(const QString& path)
{
    struct stat info{};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 ? (info.st_mode & 07777) : 0;
}

}  // namespace

class OpenInTerminal : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void typingOutputAndTheWindowSizeReachTheSession();
    void aSecondClientTakesTheSessionOver();
    void aMissingSocketIsExit125WithoutADisplay();
    void theSocketIsPrivateAndGoesWithTheSession();
    void theSocketFallsBackToTheTemporaryDirectory();
    void whatACrashedApplicationLeftIsRemoved();
    void theTerminalEmulatorChosen_data();
    void theTerminalEmulatorChosen();
    void theButtonSaysWhyItIsDisabled();

private:
    QTemporaryDir runtime_;
};

void OpenInTerminal::initTestCase()
{
    QVERIFY(runtime_.isValid());
    qputenv("XDG_RUNTIME_DIR", runtime_.path().toUtf8());
    QVERIFY2(QFileInfo(QStringLiteral(MOAT_MANAGER)).isExecutable(), MOAT_MANAGER);
}

void OpenInTerminal::typingOutputAndTheWindowSizeReachTheSession()
{
    Terminal session;
    QString error;
    QVERIFY2(session.start({QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                            QStringLiteral("echo before-attach; read line; echo got:$line; stty size; "
                                           "read line; stty size; exit 7")},
                           &error),
             qPrintable(error));
    QTRY_VERIFY(session.shown.contains("before-attach"));
    TerminalRelay relay(&session.process, [&session] { return session.shown; });
    QVERIFY2(relay.listen(&error), qPrintable(error));
    QSignalSpy resized(&relay, &TerminalRelay::clientResized);
    QSignalSpy ended(&relay, &TerminalRelay::sessionEnded);

    Terminal user;
    QVERIFY2(user.start(clientInItsTerminal(relay.socketPath()), &error, 30, 100), qPrintable(error));
    // The output so far is there first, and the window's size is the session's.
    QTRY_VERIFY2(user.shown.contains("before-attach"), user.shown.constData());
    QVERIFY(relay.hasClient());
    QTRY_VERIFY(!resized.isEmpty());
    QCOMPARE(resized.first(), (QList<QVariant>{30, 100}));

    user.process.write("typed-in-the-terminal\r");
    QTRY_VERIFY2(user.shown.contains("got:typed-in-the-terminal"), user.shown.constData());
    QTRY_VERIFY2(user.shown.contains("30 100"), user.shown.constData());
    // The application's own view of the terminal goes on too.
    QVERIFY(session.shown.contains("got:typed-in-the-terminal"));

    user.process.resize(50, 132);
    QTRY_VERIFY(resized.last() == (QList<QVariant>{50, 132}));
    user.process.write("\r");
    QTRY_VERIFY2(user.shown.contains("50 132"), user.shown.constData());

    // The session's end: a note, its status, the terminal as it was.
    QTRY_VERIFY(user.ended());
    QCOMPARE(session.status, 7);
    QCOMPARE(user.status, 7);
    QCOMPARE(ended.count(), 1);
    QVERIFY2(user.shown.contains("[moat: the session ended with status 7]"), user.shown.constData());
    const QString mode = QString::fromUtf8(user.shown.mid(user.shown.indexOf("status 7]")));
    QVERIFY2(mode.contains(QRegularExpression(QStringLiteral("(^|\\s)icanon(\\s|$)"))), qPrintable(mode));
    QVERIFY2(mode.contains(QRegularExpression(QStringLiteral("(^|\\s)echo(\\s|$)"))), qPrintable(mode));
    QVERIFY2(mode.contains(QRegularExpression(QStringLiteral("(^|\\s)isig(\\s|$)"))), qPrintable(mode));
    QVERIFY(!QFileInfo::exists(relay.directory()));
}

void OpenInTerminal::aSecondClientTakesTheSessionOver()
{
    Terminal session;
    QString error;
    QVERIFY2(session.start({QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                            QStringLiteral("echo ready; read line; echo got:$line; exit 3")},
                           &error),
             qPrintable(error));
    TerminalRelay relay(&session.process, [&session] { return session.shown; });
    QVERIFY2(relay.listen(&error), qPrintable(error));
    QTRY_VERIFY(session.shown.contains("ready"));

    Terminal first;
    QVERIFY2(first.start(clientInItsTerminal(relay.socketPath()), &error), qPrintable(error));
    QTRY_VERIFY(first.shown.contains("ready"));
    Terminal second;
    QVERIFY2(second.start(clientInItsTerminal(relay.socketPath()), &error), qPrintable(error));
    QTRY_VERIFY(second.shown.contains("ready"));
    // The first is told and let go, its terminal restored; the session goes on.
    QTRY_VERIFY(first.ended());
    QCOMPARE(first.status, 0);
    QVERIFY2(first.shown.contains("Another terminal took this session over"), first.shown.constData());
    QVERIFY(first.shown.contains(" icanon "));
    QVERIFY(!session.ended());

    second.process.write("from-the-second\r");
    QTRY_VERIFY(second.ended());
    QCOMPARE(second.status, 3);
    QVERIFY2(second.shown.contains("got:from-the-second"), second.shown.constData());
    QVERIFY(!first.shown.contains("got:from-the-second"));
}

void OpenInTerminal::aMissingSocketIsExit125WithoutADisplay()
{
    QProcess client;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // QApplication would abort here without a display: the client needs none.
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) {
        environment.remove(QString::fromLatin1(name));
    }
    client.setProcessEnvironment(environment);
    const QString missing = runtime_.filePath(QStringLiteral("no-such-dir/socket"));
    client.start(QStringLiteral(MOAT_MANAGER), {QStringLiteral("--attach"), missing});
    QVERIFY(client.waitForFinished(10000));
    QCOMPARE(client.exitStatus(), QProcess::NormalExit);
    QCOMPARE(client.exitCode(), 125);
    const QString said = QString::fromUtf8(client.readAllStandardError());
    QVERIFY2(said.contains(QStringLiteral("cannot connect to ") + missing) &&
                 said.contains(QLatin1String("No such file or directory")) &&
                 said.contains(QLatin1String("Open in terminal")),
             qPrintable(said));

    client.start(QStringLiteral(MOAT_MANAGER), {QStringLiteral("--attach")});
    QVERIFY(client.waitForFinished(10000));
    QCOMPARE(client.exitCode(), 125);
    QVERIFY(client.readAllStandardError().contains("usage: moat-manager --attach SOCKET"));
}

void OpenInTerminal::theSocketIsPrivateAndGoesWithTheSession()
{
    Terminal session;
    QString error;
    QVERIFY2(session.start({QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("read line")}, &error),
             qPrintable(error));
    QString directory;
    {
        TerminalRelay relay(&session.process, {});
        QVERIFY2(relay.listen(&error), qPrintable(error));
        directory = relay.directory();
        QCOMPARE(QFileInfo(directory).absolutePath(), QFileInfo(runtime_.path()).absoluteFilePath());
        QCOMPARE(modeOf(directory), mode_t(0700));
        QCOMPARE(modeOf(relay.socketPath()), mode_t(0600));
        QCOMPARE(QFileInfo(relay.socketPath()).ownerId(), static_cast<uint>(::getuid()));
        // Two relays never share a directory.
        TerminalRelay other(&session.process, {});
        QVERIFY2(other.listen(&error), qPrintable(error));
        QVERIFY(other.directory() != directory);
    }
    // Gone with the relay (the application quit)...
    QVERIFY(!QFileInfo::exists(directory));
    QCOMPARE(QDir(runtime_.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System), QStringList());

    // ...or with the session, the relay still there.
    TerminalRelay relay(&session.process, {});
    QVERIFY2(relay.listen(&error), qPrintable(error));
    QSignalSpy ended(&relay, &TerminalRelay::sessionEnded);
    session.process.write("\r");
    QTRY_VERIFY(!ended.isEmpty());
    QCOMPARE(ended.first().first().toInt(), 0);
    QVERIFY(!QFileInfo::exists(relay.socketPath()));
    QVERIFY(!QFileInfo::exists(relay.directory()));
    QVERIFY(!relay.isListening());
}

// A crashed application cannot remove its directory; the kernel lets its
// lock go, and the next relay to listen removes the directory. A live
// relay's directory, one being made (no lock yet) and a link are left alone.
void OpenInTerminal::whatACrashedApplicationLeftIsRemoved()
{
    Terminal session;
    QString error;
    QVERIFY2(session.start({QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("read line")}, &error),
             qPrintable(error));
    const QString base = runtime_.path();
    TerminalRelay alive(&session.process, {});
    QVERIFY2(alive.listen(&error), qPrintable(error));
    QVERIFY(QFileInfo::exists(attachLockPath(alive.directory())));

    // What a crash leaves: the socket and the lock file, the lock released.
    // The lock is held here on its own open file, as the application held
    // it, and let go as the kernel lets go of a dead process's files.
    const QString crashed = base + QStringLiteral("/moat-attach-crash1");
    QVERIFY(QDir().mkpath(crashed));
    const int held = ::open(QFile::encodeName(attachLockPath(crashed)).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    QVERIFY(held >= 0);
    QCOMPARE(::flock(held, LOCK_EX), 0);
    QFile socket(crashed + QStringLiteral("/socket"));
    QVERIFY(socket.open(QIODevice::WriteOnly));
    socket.close();
    // While it lives, its directory stays.
    QCOMPARE(removeAttachLeftovers(base), 0);
    QVERIFY(QFileInfo::exists(crashed));
    ::close(held);

    const QString beingMade = base + QStringLiteral("/moat-attach-new123");
    QVERIFY(QDir().mkpath(beingMade));
    const QString elsewhere = base + QStringLiteral("/elsewhere");
    QVERIFY(QDir().mkpath(elsewhere));
    QFile lockThere(attachLockPath(elsewhere));
    QVERIFY(lockThere.open(QIODevice::WriteOnly));
    lockThere.close();
    QVERIFY(QFile::link(elsewhere, base + QStringLiteral("/moat-attach-link12")));

    TerminalRelay next(&session.process, {});
    QVERIFY2(next.listen(&error), qPrintable(error));
    QVERIFY(!QFileInfo::exists(crashed));
    QVERIFY(QFileInfo::exists(alive.socketPath()));
    QVERIFY(QFileInfo::exists(beingMade));
    QVERIFY(QFileInfo::exists(attachLockPath(elsewhere)));

    QVERIFY(QDir(beingMade).removeRecursively());
    QVERIFY(QFile::remove(base + QStringLiteral("/moat-attach-link12")));
    QVERIFY(QDir(elsewhere).removeRecursively());
}

void OpenInTerminal::theSocketFallsBackToTheTemporaryDirectory()
{
    Terminal session;
    QString error;
    QVERIFY2(session.start({QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("read line")}, &error),
             qPrintable(error));
    QTemporaryDir temporary;
    const QByteArray runtime = qgetenv("XDG_RUNTIME_DIR");
    qunsetenv("XDG_RUNTIME_DIR");
    qputenv("TMPDIR", temporary.path().toUtf8());
    TerminalRelay relay(&session.process, {});
    const bool listening = relay.listen(&error);
    qputenv("XDG_RUNTIME_DIR", runtime);
    qunsetenv("TMPDIR");
    QVERIFY2(listening, qPrintable(error));
    QCOMPARE(QFileInfo(relay.directory()).absolutePath(), QFileInfo(temporary.path()).absoluteFilePath());
    QCOMPARE(modeOf(relay.directory()), mode_t(0700));
    session.process.write("\r");
    QTRY_VERIFY(!QFileInfo::exists(relay.directory()));
}

void OpenInTerminal::theTerminalEmulatorChosen_data()
{
    QTest::addColumn<QStringList>("programs");  // made executable on PATH
    QTest::addColumn<QString>("terminal");      // $TERMINAL; "-" unset
    QTest::addColumn<QStringList>("expected");  // argv; %P is the PATH directory; empty: none found
    QTest::addColumn<QString>("why");           // what whyNot() says, in part

    const QStringList command{QStringLiteral("moat-manager"), QStringLiteral("--attach"), QStringLiteral("/s")};
    const QString p = QStringLiteral("%P/");
    QTest::newRow("$TERMINAL chosen over the others")
        << QStringList{QStringLiteral("kitty"), QStringLiteral("xterm")} << QStringLiteral("kitty")
        << QStringList{p + QStringLiteral("kitty")} + command << QString();
    QTest::newRow("$TERMINAL with arguments of its own")
        << QStringList{QStringLiteral("xterm")} << QStringLiteral("xterm -fa \"DejaVu Sans Mono\"")
        << QStringList{p + QStringLiteral("xterm"), QStringLiteral("-fa"), QStringLiteral("DejaVu Sans Mono"),
                       QStringLiteral("-e")} +
               command
        << QString();
    QTest::newRow("$TERMINAL an emulator moat does not know: -e")
        << QStringList{QStringLiteral("myterm")} << QStringLiteral("myterm")
        << QStringList{p + QStringLiteral("myterm"), QStringLiteral("-e")} + command << QString();
    QTest::newRow("$TERMINAL gnome-terminal: --")
        << QStringList{QStringLiteral("gnome-terminal")} << QStringLiteral("gnome-terminal")
        << QStringList{p + QStringLiteral("gnome-terminal"), QStringLiteral("--")} + command << QString();
    QTest::newRow("$TERMINAL not on PATH")
        << QStringList{QStringLiteral("xterm")} << QStringLiteral("nosuchterm") << QStringList()
        << QStringLiteral("$TERMINAL is \"nosuchterm\", which is not a program found on PATH");
    QTest::newRow("unset: x-terminal-emulator first")
        << QStringList{QStringLiteral("xterm"), QStringLiteral("x-terminal-emulator"), QStringLiteral("konsole")}
        << QStringLiteral("-")
        << QStringList{p + QStringLiteral("x-terminal-emulator"), QStringLiteral("-e")} + command << QString();
    QTest::newRow("unset: gnome-terminal before xterm")
        << QStringList{QStringLiteral("xterm"), QStringLiteral("gnome-terminal")} << QStringLiteral("-")
        << QStringList{p + QStringLiteral("gnome-terminal"), QStringLiteral("--")} + command << QString();
    QTest::newRow("unset: konsole -e")
        << QStringList{QStringLiteral("konsole")} << QStringLiteral("-")
        << QStringList{p + QStringLiteral("konsole"), QStringLiteral("-e")} + command << QString();
    QTest::newRow("unset: xfce4-terminal -x")
        << QStringList{QStringLiteral("xfce4-terminal")} << QStringLiteral("-")
        << QStringList{p + QStringLiteral("xfce4-terminal"), QStringLiteral("-x")} + command << QString();
    QTest::newRow("unset: wezterm start --")
        << QStringList{QStringLiteral("wezterm")} << QStringLiteral("-")
        << QStringList{p + QStringLiteral("wezterm"), QStringLiteral("start"), QStringLiteral("--")} + command
        << QString();
    QTest::newRow("unset: only xterm")
        << QStringList{QStringLiteral("xterm")} << QStringLiteral("-")
        << QStringList{p + QStringLiteral("xterm"), QStringLiteral("-e")} + command << QString();
    QTest::newRow("unset: a file that is not executable is no emulator")
        << QStringList{QStringLiteral("!xterm")} << QStringLiteral("-") << QStringList()
        << QStringLiteral("No terminal emulator was found on PATH. Install one (for example xterm");
    QTest::newRow("none at all") << QStringList() << QStringLiteral("") << QStringList()
                                 << QStringLiteral("or set TERMINAL to the one you use");
}

void OpenInTerminal::theTerminalEmulatorChosen()
{
    QFETCH(QStringList, programs);
    QFETCH(QString, terminal);
    QFETCH(QStringList, expected);
    QFETCH(QString, why);
    QTemporaryDir path;
    for (QString program : programs) {
        const bool executable = !program.startsWith(QLatin1Char('!'));
        program.remove(QLatin1Char('!'));
        QFile file(path.filePath(program));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\nexit 0\n");
        file.close();
        if (executable) {
            QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        }
    }
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("PATH"), path.path());
    if (terminal != QLatin1String("-")) {
        environment.insert(QStringLiteral("TERMINAL"), terminal);
    }
    const TerminalEmulator emulator = TerminalEmulator::find(environment);
    const QStringList argv =
        emulator.commandLine({QStringLiteral("moat-manager"), QStringLiteral("--attach"), QStringLiteral("/s")});
    expected.replaceInStrings(QStringLiteral("%P"), path.path());
    QCOMPARE(argv, expected);
    QCOMPARE(emulator.isValid(), !expected.isEmpty());
    if (!why.isEmpty()) {
        QVERIFY2(emulator.whyNot().contains(why), qPrintable(emulator.whyNot()));
        QString error;
        QVERIFY(!emulator.startDetached({QStringLiteral("true")}, &error));
        QCOMPARE(error, emulator.whyNot());
    }
}

void OpenInTerminal::theButtonSaysWhyItIsDisabled()
{
    MoatdConnection moatd(
        QDBusConnection::connectToBus(QStringLiteral("unix:path=/nonexistent/bus"), QStringLiteral("nobus")));
    SessionView view(&moatd, QStringLiteral("s-1"));
    QPushButton* button = view.openInTerminalButton();
    QVERIFY(!button->accessibleName().isEmpty());
    QVERIFY((button->focusPolicy() & Qt::TabFocus) != 0);
    QCOMPARE(button->text(), QStringLiteral("Open in ter&minal"));
    // Started elsewhere (no terminal here): disabled, and the tooltip and the
    // accessible description say why.
    QVERIFY(!button->isEnabled());
    QVERIFY2(button->toolTip().contains(QLatin1String("not started from this window")), qPrintable(button->toolTip()));
    QCOMPARE(button->accessibleDescription(), button->toolTip());
    SessionLauncher launcher;
    view.setTerminalSource(&launcher, QStringLiteral("not-from-here"));
    QVERIFY(!button->isEnabled());
    QVERIFY(button->toolTip().contains(QLatin1String("not started from this window")));
    QString error;
    QVERIFY(launcher.relayFor(QStringLiteral("not-from-here"), &error) == nullptr);
    QVERIFY2(error.contains(QLatin1String("no running terminal")), qPrintable(error));
    // No other control of the view takes its access key.
    for (QAbstractButton* other : view.findChildren<QAbstractButton*>()) {
        if (other != button) {
            QVERIFY2(!other->text().contains(QLatin1String("&m"), Qt::CaseInsensitive), qPrintable(other->text()));
        }
    }
}

QTEST_MAIN(OpenInTerminal)
#include "tst_open_in_terminal.moc"
