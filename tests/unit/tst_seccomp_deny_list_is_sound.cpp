// SPDX-License-Identifier: Apache-2.0
// The deny list is published (moat claims, docs): every entry has a reason a
// reviewer can read, names a real system call of this architecture (a typo
// would silently deny nothing), and appears once.
#include "runtime/seccomp_policy.h"

#include <QSet>
#include <QTest>

#include <seccomp.h>

using moat::SeccompPolicy;

namespace {

// Names on the list that only exist on other architectures. The filter skips
// them where they do not resolve; everywhere else an unresolvable name is a
// typo.
QSet<QString> otherArchitecturesOnly()
{
#if defined(__x86_64__)
    return {QStringLiteral("vm86"), QStringLiteral("vm86old")};  // i386 only
#else
    return {};
#endif
}

}  // namespace

class SeccompDenyListIsSound : public QObject {
    Q_OBJECT

private slots:
    void everyDenialHasAReason()
    {
        QVERIFY(!SeccompPolicy::denyList().empty());
        for (const auto& denial : SeccompPolicy::denyList()) {
            QVERIFY2(!denial.syscall.empty(), "an entry without a system call");
            QVERIFY2(!denial.reason.empty(), denial.syscall.c_str());
        }
        QVERIFY(!SeccompPolicy::argumentDenials().empty());
        for (const auto& denial : SeccompPolicy::argumentDenials()) {
            QVERIFY2(!denial.syscall.empty(), "an entry without a system call");
            QVERIFY2(!denial.reason.empty(), denial.syscall.c_str());
        }
    }

    void everyNameResolves_data()
    {
        QTest::addColumn<QString>("syscall");
        for (const auto& denial : SeccompPolicy::denyList()) {
            QTest::newRow(denial.syscall.c_str()) << QString::fromStdString(denial.syscall);
        }
    }

    void everyNameResolves()
    {
        QFETCH(QString, syscall);
#if !defined(__x86_64__)
        QSKIP("the names foreign to this architecture are only listed for x86_64; add them for this one");
#endif

        const int nr = seccomp_syscall_resolve_name(syscall.toLatin1().constData());
        QVERIFY2(nr != __NR_SCMP_ERROR, "not a system call libseccomp knows on any architecture: a typo?");
        if (otherArchitecturesOnly().contains(syscall)) {
            // libseccomp gives a negative pseudo-number for "not on this arch".
            QVERIFY2(nr < 0, "listed as foreign to this architecture, but it resolves: update the exceptions");
            return;
        }
        QVERIFY2(nr >= 0, qPrintable(QString("resolves to %1: not a system call of this architecture").arg(nr)));
        // And back: the number is that system call, not an alias of another.
        char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
        QVERIFY(name);
        const QString back = QString::fromLatin1(name);
        free(name);
        QCOMPARE(back, syscall);
    }

    void exceptionsAreOnTheList()
    {
        QSet<QString> listed;
        for (const auto& denial : SeccompPolicy::denyList()) {
            listed.insert(QString::fromStdString(denial.syscall));
        }
        for (const QString& name : otherArchitecturesOnly()) {
            QVERIFY2(listed.contains(name), qPrintable(name));
        }
    }

    void noDuplicates()
    {
        QSet<QString> seen;
        for (const auto& denial : SeccompPolicy::denyList()) {
            const QString name = QString::fromStdString(denial.syscall);
            QVERIFY2(!seen.contains(name), qPrintable("listed twice: " + name));
            seen.insert(name);
        }
        QSet<QString> argumentSeen;
        for (const auto& denial : SeccompPolicy::argumentDenials()) {
            const QString name = QString::fromStdString(denial.syscall);
            QVERIFY2(!argumentSeen.contains(name), qPrintable("listed twice: " + name));
            argumentSeen.insert(name);
        }
    }

    // What ARCHITECTURE.md promises is on the list.
    void coversTheDocumentedFamilies_data()
    {
        QTest::addColumn<QString>("syscall");
        for (const char* name : {"mount", "umount2", "pivot_root", "setns", "bpf", "perf_event_open", "keyctl",
                                 "add_key", "request_key", "userfaultfd", "io_uring_setup", "kexec_load",
                                 "init_module", "finit_module", "acct", "swapon", "reboot", "syslog",
                                 "open_by_handle_at", "move_mount", "open_tree", "fsopen", "fsmount"}) {
            QTest::newRow(name) << name;
        }
    }

    void coversTheDocumentedFamilies()
    {
        QFETCH(QString, syscall);
        bool found = false;
        for (const auto& denial : SeccompPolicy::denyList()) {
            found = found || QString::fromStdString(denial.syscall) == syscall;
        }
        QVERIFY(found);
    }

    void kernelSupportsFilters()
    {
        if (!SeccompPolicy::kernelSupportsFilters()) {
            QSKIP("this kernel has no seccomp filter support (CONFIG_SECCOMP_FILTER)");
        }
        QVERIFY(seccomp_api_get() >= 1);
    }
};

QTEST_GUILESS_MAIN(SeccompDenyListIsSound)
#include "tst_seccomp_deny_list_is_sound.moc"
