// SPDX-License-Identifier: Apache-2.0
// The Landlock rights moat handles follow the kernel's ABI exactly: every
// right the ABI can express is handled (so denied unless a rule allows it),
// and none the kernel does not know (or the ruleset is refused).
#include "runtime/landlock_policy.h"

#include <QTest>

#include <bit>
#include <linux/landlock.h>

using moat::LandlockPolicy;

class LandlockRightsPerAbi : public QObject {
    Q_OBJECT

private slots:
    void fsRightsForAbi_data()
    {
        QTest::addColumn<int>("abi");
        QTest::addColumn<quint64>("rights");
        QTest::addColumn<int>("count");

        const quint64 abi1 = (1ULL << 13) - 1;  // EXECUTE .. MAKE_SYM
        const quint64 refer = 1ULL << 13;
        const quint64 truncate = 1ULL << 14;
        const quint64 ioctlDev = 1ULL << 15;
        QTest::newRow("no Landlock (-1)") << -1 << quint64(0) << 0;
        QTest::newRow("ABI 0") << 0 << quint64(0) << 0;
        QTest::newRow("ABI 1") << 1 << abi1 << 13;
        QTest::newRow("ABI 2: REFER") << 2 << (abi1 | refer) << 14;
        QTest::newRow("ABI 3: TRUNCATE") << 3 << (abi1 | refer | truncate) << 15;
        QTest::newRow("ABI 4: network only") << 4 << (abi1 | refer | truncate) << 15;
        QTest::newRow("ABI 5: IOCTL_DEV") << 5 << (abi1 | refer | truncate | ioctlDev) << 16;
        QTest::newRow("ABI 6: scoping only") << 6 << (abi1 | refer | truncate | ioctlDev) << 16;
        QTest::newRow("ABI 7: logging only") << 7 << (abi1 | refer | truncate | ioctlDev) << 16;
    }

    void fsRightsForAbi()
    {
        QFETCH(int, abi);
        QFETCH(quint64, rights);
        QFETCH(int, count);

        const uint64_t actual = LandlockPolicy::fsRightsForAbi(abi);
        QCOMPARE(quint64(actual), rights);
        QCOMPARE(std::popcount(actual), count);
    }

    // The bits match the kernel's own header, not just moat's copy of them.
    void rightsMatchTheKernelHeader()
    {
        QCOMPARE(quint64(LandlockPolicy::fsRightsForAbi(1)),
                 quint64(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
                         LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                         LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                         LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                         LANDLOCK_ACCESS_FS_MAKE_SYM));
#ifdef LANDLOCK_ACCESS_FS_REFER
        QVERIFY(LandlockPolicy::fsRightsForAbi(2) & LANDLOCK_ACCESS_FS_REFER);
        QVERIFY(!(LandlockPolicy::fsRightsForAbi(1) & LANDLOCK_ACCESS_FS_REFER));
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
        QVERIFY(LandlockPolicy::fsRightsForAbi(3) & LANDLOCK_ACCESS_FS_TRUNCATE);
        QVERIFY(!(LandlockPolicy::fsRightsForAbi(2) & LANDLOCK_ACCESS_FS_TRUNCATE));
#endif
    }

    void rightsNeverShrinkAsTheAbiGrows()
    {
        for (int abi = 1; abi < 16; ++abi) {
            const uint64_t older = LandlockPolicy::fsRightsForAbi(abi - 1);
            const uint64_t newer = LandlockPolicy::fsRightsForAbi(abi);
            QVERIFY2((older & newer) == older, qPrintable(QString("ABI %1").arg(abi)));
        }
    }

    void kernelHasLandlock()
    {
        const int abi = LandlockPolicy::kernelAbi();
        if (abi < 0) {
            QSKIP("Landlock is not enabled in this kernel (CONFIG_SECURITY_LANDLOCK, lsm= boot parameter)");
        }
        QVERIFY2(abi >= LandlockPolicy::kMinimumAbi, qPrintable(QString("ABI %1").arg(abi)));
        QCOMPARE(LandlockPolicy::kMinimumAbi, 1);
        // Asking twice gives the same answer and creates nothing.
        QCOMPARE(LandlockPolicy::kernelAbi(), abi);
    }
};

QTEST_GUILESS_MAIN(LandlockRightsPerAbi)
#include "tst_landlock_rights_per_abi.moc"
