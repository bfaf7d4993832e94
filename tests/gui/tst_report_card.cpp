// SPDX-License-Identifier: Apache-2.0
// moat-manager's Report card page with the real moat binary of this build:
// `moat probe --host --json` and `moat probe --json` run as child processes
// while the window stays responsive, and the page shows the seven criteria
// with a grade A-D for the host and for the default sandbox (or the
// sandbox probe's own error, plainly); a moat that cannot be started, or
// one that fails, is said so in words, and Run again runs both again.
#include <QApplication>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "report_card_page.h"

using moat::gui::ReportCardPage;

namespace {

constexpr int kProbeMs = 180000;
const QRegularExpression kGrade(QStringLiteral("^[ABCD]$"));

enum Column { Criterion, SandboxGrade, SandboxEvidence, HostGrade, HostEvidence };

}  // namespace

class ReportCardTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // moat's records and config go to a directory of the test's own;
        // without a session bus moat probe runs its sandbox embedded.
        QVERIFY(state_.isValid() && config_.isValid());
        qputenv("MOAT_STATE_DIR", state_.path().toLocal8Bit());
        qputenv("MOAT_CONFIG_DIR", config_.path().toLocal8Bit());
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
    }

    void sevenCriteriaForTheHostAndTheSandbox()
    {
        ReportCardPage page;
        page.setMoatProgram(QStringLiteral(MOAT_BIN_DIR "/moat"));
        QSignalSpy finished(&page, &ReportCardPage::finished);
        page.show();  // the first showing runs both probes
        // show() came back with the probes still running: the window does
        // not wait on them (a blocking run would have ended by now).
        QVERIFY(page.isRunning());
        QVERIFY(finished.wait(kProbeMs));
        QVERIFY(!page.isRunning());

        QTableWidget* table = page.table();
        QCOMPARE(table->rowCount(), 7);
        for (int row = 0; row < 7; ++row) {
            QVERIFY(!table->item(row, Criterion)->text().isEmpty());
            QVERIFY2(kGrade.match(table->item(row, HostGrade)->text()).hasMatch(),
                     qPrintable(QStringLiteral("host, criterion %1: '%2'; %3")
                                    .arg(row + 1)
                                    .arg(table->item(row, HostGrade)->text(), page.hostStatus())));
            QVERIFY2(!table->item(row, HostEvidence)->text().isEmpty(), qPrintable(page.hostStatus()));
        }
        // The host is no sandbox: criterion 1 is C or D unless this is a VM.
        QVERIFY(QStringLiteral("BCD").contains(table->item(0, HostGrade)->text()));

        // The sandbox probe needs a sandbox this machine can make; either
        // way the page says what happened.
        if (kGrade.match(table->item(0, SandboxGrade)->text()).hasMatch()) {
            for (int row = 0; row < 7; ++row) {
                QVERIFY(kGrade.match(table->item(row, SandboxGrade)->text()).hasMatch());
                QVERIFY(!table->item(row, SandboxEvidence)->text().isEmpty());
            }
            QVERIFY2(page.sandboxStatus().contains(QStringLiteral("ran at")),
                     qPrintable(page.sandboxStatus()));
        } else {
            QVERIFY2(page.sandboxStatus().contains(QStringLiteral("failed")), qPrintable(page.sandboxStatus()));
        }
    }

    void aMissingMoatIsSaidInWords()
    {
        ReportCardPage page;
        page.setMoatProgram(QStringLiteral("/nonexistent/moat"));
        QSignalSpy finished(&page, &ReportCardPage::finished);
        page.runAgain();
        QVERIFY(finished.wait(10000));
        QVERIFY2(page.hostStatus().contains(QStringLiteral("Could not start /nonexistent/moat")),
                 qPrintable(page.hostStatus()));
        QVERIFY2(page.sandboxStatus().contains(QStringLiteral("Could not start")), qPrintable(page.sandboxStatus()));
        QVERIFY(page.table()->item(0, HostGrade)->text().isEmpty());
        QVERIFY(!page.isRunning());
    }

    void aFailingProbeShowsItsMessageAndRunsAgain()
    {
        // A stand-in that fails as moat does (exit 125, a message on stderr).
        QTemporaryDir bin;
        const QString fake = bin.filePath(QStringLiteral("moat"));
        QFile script(fake);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho \"moat: probe: the sandbox did not start (try again)\" >&2\nexit 125\n");
        script.close();
        QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        ReportCardPage page;
        page.setMoatProgram(fake);
        QSignalSpy finished(&page, &ReportCardPage::finished);
        for (int run = 0; run < 2; ++run) {
            page.runAgain();
            QVERIFY(finished.wait(10000));
            QVERIFY2(page.hostStatus().contains(QStringLiteral("exit status 125")) &&
                         page.hostStatus().contains(QStringLiteral("the sandbox did not start (try again)")),
                     qPrintable(page.hostStatus()));
        }
        QCOMPARE(finished.size(), 2);
    }

private:
    QTemporaryDir state_;
    QTemporaryDir config_;
};

QTEST_MAIN(ReportCardTest)
#include "tst_report_card.moc"
