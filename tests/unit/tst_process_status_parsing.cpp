// SPDX-License-Identifier: Apache-2.0
// The probe's reading of /proc/<pid>/status: the capability masks,
// NoNewPrivs and the seccomp mode it grades, and what it makes of fields that
// are absent or malformed (never "all clear").
#include "probe/process_status.h"

#include <QTest>

using moat::probe::ProcessStatus;

namespace {

const char* const confinedStatus = "Name:\tsh\n"
                                   "Umask:\t0022\n"
                                   "State:\tS (sleeping)\n"
                                   "CapInh:\t0000000000000000\n"
                                   "CapPrm:\t0000000000000000\n"
                                   "CapEff:\t0000000000000000\n"
                                   "CapBnd:\t0000000000000000\n"
                                   "CapAmb:\t0000000000000000\n"
                                   "NoNewPrivs:\t1\n"
                                   "Seccomp:\t2\n"
                                   "Seccomp_filters:\t1\n";

const char* const rootStatus = "CapPrm:\t000001ffffffffff\n"
                               "CapEff:\t000001ffffffffff\n"
                               "CapBnd:\t000001ffffffffff\n"
                               "CapAmb:\t0000000000000000\n"
                               "NoNewPrivs:\t0\n"
                               "Seccomp:\t0\n";

bool okOf(const moat::probe::Checks& checks, const std::string& name)
{
    for (const auto& check : checks) {
        if (check.name == name) {
            return check.ok;
        }
    }
    qFatal("no check %s", name.c_str());
}

}  // namespace

class ProcessStatusParsing : public QObject {
    Q_OBJECT

private slots:
    void readsTheGradedFields()
    {
        const auto status = ProcessStatus::parse(rootStatus);
        QCOMPARE(QString::fromStdString(*status.capEff), QString("000001ffffffffff"));
        QCOMPARE(QString::fromStdString(*status.capAmb), QString("0000000000000000"));
        QCOMPARE(*status.noNewPrivs, 0);
        QCOMPARE(*status.seccomp, 0);
    }

    void aConfinedProcessPassesEveryCheck()
    {
        const auto checks = moat::probe::processStatusChecks(ProcessStatus::parse(confinedStatus));
        QCOMPARE(checks.size(), size_t(6));
        for (const auto& check : checks) {
            QVERIFY2(check.ok, check.name.c_str());
        }
        // Seccomp_filters is a different field from Seccomp.
        QCOMPARE(QString::fromStdString(checks.back().detail), QString("Seccomp: 2 (filter)"));
    }

    void rootFailsTheCapabilityChecks()
    {
        const auto checks = moat::probe::processStatusChecks(ProcessStatus::parse(rootStatus));
        QVERIFY(!okOf(checks, "cap_eff_zero"));
        QVERIFY(!okOf(checks, "cap_prm_zero"));
        QVERIFY(!okOf(checks, "cap_bnd_zero"));
        QVERIFY(okOf(checks, "cap_amb_zero"));
        QVERIFY(!okOf(checks, "no_new_privs"));
        QVERIFY(!okOf(checks, "seccomp_mode"));
    }

    void absentOrMalformedFieldsAreNeverClear()
    {
        const auto empty = moat::probe::processStatusChecks(ProcessStatus::parse(""));
        for (const auto& check : empty) {
            QVERIFY2(!check.ok, check.name.c_str());
            QVERIFY(check.detail.find("(absent)") != std::string::npos);
        }
        const auto malformed = ProcessStatus::parse("CapEff:\t\nNoNewPrivs:\tyes\nSeccomp:\t-1\n");
        QVERIFY(!moat::probe::isZeroMask(malformed.capEff));
        QVERIFY(!malformed.noNewPrivs.has_value());
        QVERIFY(!malformed.seccomp.has_value());
    }

    void theRealFileParses()
    {
        const auto checks = moat::probe::currentProcessChecks();
        QCOMPARE(checks.size(), size_t(6));
        for (const auto& check : checks) {
            QVERIFY2(check.detail.find("(absent)") == std::string::npos, check.detail.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(ProcessStatusParsing)
#include "tst_process_status_parsing.moc"
