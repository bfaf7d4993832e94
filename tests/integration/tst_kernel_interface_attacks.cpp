// SPDX-License-Identifier: Apache-2.0
// The kernel interfaces behind many escapes stay closed inside: the system
// calls a seccomp filter written for the native ABI alone would miss, and
// those exploits lean on. Each first works outside, as the same user.
#include "integrationfixture.h"

#include <QTest>

#include <signal.h>

class KernelInterfaceAttacks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void foreignSystemCallAbisKillTheProcess_data();
    void foreignSystemCallAbisKillTheProcess();
    void kernelInterfacesForEscapesAreClosed_data();
    void kernelInterfacesForEscapesAreClosed();

private:
    IntegrationFixture fixture_;
};

void KernelInterfaceAttacks::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void KernelInterfaceAttacks::init()
{
    fixture_.renewWorkspaces();
}

void KernelInterfaceAttacks::cleanupTestCase()
{
    fixture_.tearDown();
}

void KernelInterfaceAttacks::foreignSystemCallAbisKillTheProcess_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void KernelInterfaceAttacks::foreignSystemCallAbisKillTheProcess()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
#if !defined(__x86_64__)
    QSKIP("the i386 system-call ABI exists only on x86-64");
#endif
    const QString tool = fixture_.install().tool(QStringLiteral("foreign-abi-syscall"));
    const ProcessResult outside = runner->host({tool});
    if (!outside.succeeded()) {
        QSKIP(qPrintable(QStringLiteral("this kernel has no i386 ABI (%1)").arg(outside.describe())));
    }
    QVERIFY(outside.out.contains("i386 getpid: "));

    // A filter written for the native ABI would not see this call; moat's
    // kills the process instead (SIGSYS), with or without --sudo.
    const QStringList tools{QStringLiteral("--ro"), fixture_.install().dir()};
    for (const QStringList& flags : {tools, tools + QStringList{QStringLiteral("--sudo")}}) {
        const ProcessResult inside = runner->moatRun(flags, {tool});
        QVERIFY2(inside.exitCode == 128 + SIGSYS && !inside.out.contains("getpid"), qPrintable(inside.describe()));
    }
}

void KernelInterfaceAttacks::kernelInterfacesForEscapesAreClosed_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QString>("probe");
    for (const char* account : {"root", "user"}) {
        for (const char* probe : {"io_uring_setup", "userfaultfd", "add_key", "perf_event_open", "bpf",
                                  "open_by_handle_at", "setns"}) {
            QTest::addRow("%s: %s", account, probe) << QString::fromLatin1(account) << QString::fromLatin1(probe);
        }
    }
}

void KernelInterfaceAttacks::kernelInterfacesForEscapesAreClosed()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, probe);
    // System calls behind many kernel escapes: the seccomp filter refuses
    // them inside, even to --sudo root, where the host kernel grants them.
    const QStringList attempt{QStringLiteral("/usr/bin/python3"),
                              fixture_.install().tool(QStringLiteral("syscall-probe.py")), probe};
    const ProcessResult outside = runner->host(attempt);
    if (!outside.succeeded() && outside.out.contains(probe.toUtf8() + ": E")) {
        QSKIP(qPrintable(QStringLiteral("outside, the kernel already refuses %1 to %2 (%3): nothing to take away")
                             .arg(probe, runner->account().name(), outside.stdOut().trimmed())));
    }
    QVERIFY2(outside.succeeded() && outside.out.contains(probe.toUtf8() + ": ok"), qPrintable(outside.describe()));

    const QStringList tools{QStringLiteral("--ro"), fixture_.install().dir()};
    for (const QStringList& flags : {tools, tools + QStringList{QStringLiteral("--sudo")}}) {
        const ProcessResult inside = runner->moatRun(flags, attempt);
        QVERIFY2(inside.exitCode == 1 && inside.out.contains(probe.toUtf8() + ": E"), qPrintable(inside.describe()));
    }
}

QTEST_GUILESS_MAIN(KernelInterfaceAttacks)
#include "tst_kernel_interface_attacks.moc"
