// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QWidget>

class QLabel;
class QProcess;
class QPushButton;
class QTableWidget;

namespace moat::gui {

// The report card: `moat probe --json` (a fresh default sandbox) and
// `moat probe --host --json` (this machine as this user), the seven
// criteria of docs/probe.md side by side with their grades and evidence.
// Both run as child processes; the window never waits on them.
class ReportCardPage : public QWidget
{
    Q_OBJECT
public:
    explicit ReportCardPage(QWidget* parent = nullptr);
    ~ReportCardPage() override;

    // The moat program: build/bin/moat beside moat-manager, else `moat` on
    // PATH (empty when neither exists).
    static QString defaultMoatProgram();
    void setMoatProgram(const QString& program) { program_ = program; }

    // Runs both probes again (what "Run again" does); a run in progress is
    // left to finish.
    void runAgain();
    bool isRunning() const;

    // For tests and the caller: the table (rows: criteria 1..7; columns:
    // criterion, sandbox grade, sandbox evidence, host grade, host evidence)
    // and each side's status line.
    QTableWidget* table() const { return table_; }
    QString sandboxStatus() const;
    QString hostStatus() const;

protected:
    // The first time the page is shown, both probes run.
    void showEvent(QShowEvent* event) override;

signals:
    // Both probes have ended (with a card or an error each).
    void finished();

private:
    // Each side's status sentences whole, so that a translation need not
    // build them from pieces.
    struct StatusTexts {
        QString probing;      // no argument
        QString ranAt;        // %1: the time
        QString interrupted;  // %1: what the probe printed on stderr
        QString failed;       // %1: exit status, %2: why
    };
    struct Side {
        QProcess* process = nullptr;
        QLabel* status = nullptr;
        int gradeColumn = 0;
        StatusTexts texts;
    };
    void start(Side& side, const QStringList& arguments);
    void finishSide(Side& side);
    void fill(const Side& side, const QJsonObject& card);

    QString program_;
    Side sandbox_;
    Side host_;
    QTableWidget* table_ = nullptr;
    QPushButton* runAgain_ = nullptr;
    bool everRun_ = false;
};

}  // namespace moat::gui
