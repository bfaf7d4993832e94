// SPDX-License-Identifier: Apache-2.0
// A flood of events becomes a count: the first N of each second are kept,
// the rest are counted and reported with the next event kept.
#include "audit/event_budget.h"

#include <QTest>

using moat::EventBudget;
using Clock = std::chrono::steady_clock;

class EventBudgetTest : public QObject {
    Q_OBJECT

private slots:
    void keepsTheFirstOfEachSecondAndCountsTheRest()
    {
        EventBudget budget(3);
        const Clock::time_point start = Clock::now();
        for (int i = 0; i < 3; ++i) {
            QVERIFY(budget.admit(start + std::chrono::milliseconds(i)));
        }
        for (int i = 0; i < 5; ++i) {
            QVERIFY(!budget.admit(start + std::chrono::milliseconds(100 + i)));
        }
        // A new second: room again, and the refusals are reported once.
        QVERIFY(budget.admit(start + std::chrono::milliseconds(1000)));
        QCOMPARE(budget.takeSuppressed(), uint64_t(5));
        QCOMPARE(budget.takeSuppressed(), uint64_t(0));
    }

    void zeroBudgetRecordsNothing()
    {
        EventBudget budget(0);
        QVERIFY(!budget.admit());
        QVERIFY(!budget.admit());
        QCOMPARE(budget.takeSuppressed(), uint64_t(2));
    }
};

QTEST_GUILESS_MAIN(EventBudgetTest)
#include "tst_event_budget.moc"
