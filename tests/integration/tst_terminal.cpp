// SPDX-License-Identifier: Apache-2.0
// The command's terminal: with a terminal on stdin it gets a fresh pty of its
// own (so it cannot push keystrokes into the user's), which still behaves like
// the user's (size, resize, Ctrl-C, the terminal restored afterwards); without
// one, plain pipes that keep stdout and stderr apart and pass stdin through.
//
// The tests make the terminal themselves: tests/tools/ptyrun.py runs a
// command (moat, or the same attack outside) on a new pseudo-terminal.

#include "integrationfixture.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>

namespace {

const QString kPython = QStringLiteral("/usr/bin/python3");

bool legacyTiocstiAllowed()
{
    QFile knob(QStringLiteral("/proc/sys/dev/tty/legacy_tiocsti"));
    // Kernels before 6.2 have no knob and always allow it.
    return !knob.open(QIODevice::ReadOnly) || knob.readAll().trimmed() != "0";
}

}  // namespace

class Terminal : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void keystrokeInjectionIsRefused_data();
    void keystrokeInjectionIsRefused();
    void commandGetsAFreshPty_data();
    void commandGetsAFreshPty();
    void windowSizeMatchesOuterTerminal_data();
    void windowSizeMatchesOuterTerminal();
    void windowResizeReachesTheCommand_data();
    void windowResizeReachesTheCommand();
    void ctrlCInterruptsTheCommand_data();
    void ctrlCInterruptsTheCommand();
    void outerTerminalIsRestoredAfterwards_data();
    void outerTerminalIsRestoredAfterwards();
    void stdoutAndStderrStaySeparateInPipeMode_data();
    void stdoutAndStderrStaySeparateInPipeMode();
    void stdinIsPipedThrough_data();
    void stdinIsPipedThrough();

private:
    QStringList moatCommand(AccountRunner* runner, const QStringList& command,
                            const QStringList& runOptions = {}) const;
    IntegrationFixture fixture_;
};

void Terminal::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void Terminal::init()
{
    fixture_.renewWorkspaces();
}

void Terminal::cleanupTestCase()
{
    fixture_.tearDown();
}

QStringList Terminal::moatCommand(AccountRunner* runner, const QStringList& command,
                                  const QStringList& runOptions) const
{
    return runner->moatRunCommand(QStringList{QStringLiteral("--ro"), fixture_.install().dir()} + runOptions, command);
}

void Terminal::keystrokeInjectionIsRefused_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Terminal::keystrokeInjectionIsRefused()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (!runner->account().isRoot() && !legacyTiocstiAllowed()) {
        QSKIP("dev.tty.legacy_tiocsti is 0: TIOCSTI fails for ordinary users outside too, nothing to take away");
    }
    const QStringList attempt{kPython, fixture_.install().tool(QStringLiteral("tiocsti.py"))};

    const ProcessResult outside = runner->underPty({}, attempt);
    QVERIFY2(outside.succeeded() && outside.out.contains("injected"), qPrintable(outside.describe()));

    const ProcessResult inside = runner->underPty({}, moatCommand(runner, attempt));
    QVERIFY2(inside.exitCode == 1 && inside.out.contains("tiocsti: EPERM"), qPrintable(inside.describe()));
}

void Terminal::commandGetsAFreshPty_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Terminal::commandGetsAFreshPty()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult inside = runner->underPty(
        {}, moatCommand(runner, {QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                 QStringLiteral("/usr/bin/tty; [ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo all-tty")}));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("/dev/pts/0\r\n"), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("all-tty"), qPrintable(inside.describe()));
}

void Terminal::windowSizeMatchesOuterTerminal_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Terminal::windowSizeMatchesOuterTerminal()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QStringList size{QStringLiteral("--rows"), QStringLiteral("33"), QStringLiteral("--cols"),
                           QStringLiteral("111")};
    const ProcessResult outside = runner->underPty(size, {QStringLiteral("/bin/stty"), QStringLiteral("size")});
    QVERIFY2(outside.succeeded() && outside.out.contains("33 111"), qPrintable(outside.describe()));
    // From the command's first instruction on, not eventually: a size
    // copied after the command started shows as "0 0" now and then, so try
    // a few times.
    for (int attempt = 0; attempt < 10; ++attempt) {
        const ProcessResult inside =
            runner->underPty(size, moatCommand(runner, {QStringLiteral("/bin/stty"), QStringLiteral("size")}));
        QVERIFY2(inside.succeeded() && inside.out.contains("33 111"),
                 qPrintable(QStringLiteral("attempt %1: ").arg(attempt + 1) + inside.describe()));
    }
}

void Terminal::windowResizeReachesTheCommand_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Terminal::windowResizeReachesTheCommand()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString watcher = QStringLiteral(
        "import os, signal, sys, time\n"
        "def changed(*_):\n"
        "    size = os.get_terminal_size(0)\n"
        "    print('resized %d %d' % (size.lines, size.columns), flush=True)\n"
        "    sys.exit(0)\n"
        "signal.signal(signal.SIGWINCH, changed)\n"
        "print('READY', flush=True)\n"
        "time.sleep(10)\n"
        "sys.exit(3)\n");
    const ProcessResult inside = runner->underPty(
        {QStringLiteral("--expect"), QStringLiteral("READY"), QStringLiteral("--resize"), QStringLiteral("0.3:40x120")},
        moatCommand(runner, {kPython, QStringLiteral("-c"), watcher}));
    QVERIFY2(inside.succeeded() && inside.out.contains("resized 40 120"), qPrintable(inside.describe()));
}

void Terminal::ctrlCInterruptsTheCommand_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Terminal::ctrlCInterruptsTheCommand()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult inside = runner->underPty(
        {QStringLiteral("--expect"), QStringLiteral("READY"), QStringLiteral("--send"), QStringLiteral("0.3:03"),
         QStringLiteral("--timeout"), QStringLiteral("20")},
        moatCommand(runner, {QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                             QStringLiteral("echo READY; exec /bin/sleep 100")}));
    QVERIFY2(inside.exitCode == 130, qPrintable(inside.describe()));
    QVERIFY2(inside.elapsedMs < 5000, qPrintable(inside.describe()));
}

void Terminal::outerTerminalIsRestoredAfterwards_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Terminal::outerTerminalIsRestoredAfterwards()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // moat puts the outer terminal in raw mode while it relays; afterwards
    // the user's shell must get it back as it was (canonical, echoing), also
    // when the command failed.
    for (const QString& script : {QStringLiteral("exit 0"), QStringLiteral("exit 7")}) {
        const ProcessResult inside = runner->underPty(
            {QStringLiteral("--report-termios")},
            moatCommand(runner, {QStringLiteral("/bin/sh"), QStringLiteral("-c"), script}));
        QVERIFY2(inside.out.contains("ptyrun: icanon=1 echo=1"), qPrintable(inside.describe()));
    }
}

void Terminal::stdoutAndStderrStaySeparateInPipeMode_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Terminal::stdoutAndStderrStaySeparateInPipeMode()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const ProcessResult inside = runner->moatShell(
        {}, QStringLiteral("echo to-stdout; echo to-stderr >&2; [ -t 0 ] || [ -t 1 ] || [ -t 2 ] || echo no-tty; "
                           "exit 3"));
    QCOMPARE(inside.exitCode, 3);
    QCOMPARE(inside.out, QByteArray("to-stdout\nno-tty\n"));
    QCOMPARE(inside.err, QByteArray("to-stderr\n"));
}

void Terminal::stdinIsPipedThrough_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void Terminal::stdinIsPipedThrough()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    RunOptions small;
    small.feedInput = true;
    small.input = "first line\nsecond line\n";
    small.timeoutMs = 5000;  // cat ends at EOF; waiting longer only hides a lost EOF
    const ProcessResult echoed = runner->moatRun({}, {QStringLiteral("/bin/cat")}, small);
    QVERIFY2(echoed.succeeded(), qPrintable(echoed.describe()));
    QCOMPARE(echoed.out, small.input);

    // A megabyte of binary data arrives intact, and its end arrives too
    // (the command sees EOF and finishes).
    RunOptions big;
    big.feedInput = true;
    big.timeoutMs = 10000;
    big.input.resize(1 << 20);
    QRandomGenerator generator(20261201);
    for (char& byte : big.input) {
        byte = static_cast<char>(generator.bounded(256));
    }
    const ProcessResult hashed = runner->moatRun({}, {QStringLiteral("/usr/bin/sha256sum")}, big);
    QVERIFY2(hashed.succeeded(), qPrintable(hashed.describe()));
    QCOMPARE(hashed.out.left(64), QCryptographicHash::hash(big.input, QCryptographicHash::Sha256).toHex());
}

QTEST_GUILESS_MAIN(Terminal)
#include "tst_terminal.moc"
