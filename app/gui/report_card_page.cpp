// SPDX-License-Identifier: Apache-2.0
#include "report_card_page.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

namespace moat::gui {

namespace {

constexpr int kCriteria = 7;
constexpr int kKillGraceMs = 3000;
constexpr qsizetype kMaxShownError = 2000;

enum Column { Criterion, SandboxGrade, SandboxEvidence, HostGrade, HostEvidence, ColumnCount };

// The seven criteria of docs/probe.md, in the user's language; the probe's
// own name is shown when it reports an id outside them.
QString criterionName(int id)
{
    switch (id) {
        case 1:
            return ReportCardPage::tr("1. Isolation boundary");
        case 2:
            return ReportCardPage::tr("2. Kernel support for an inner sandbox");
        case 3:
            return ReportCardPage::tr("3. Agent privilege");
        case 4:
            return ReportCardPage::tr("4. Control plane inside the machine");
        case 5:
            return ReportCardPage::tr("5. Egress");
        case 6:
            return ReportCardPage::tr("6. Secrets");
        case 7:
            return ReportCardPage::tr("7. Recovery and records");
        default:
            return {};
    }
}

QTableWidgetItem* readOnlyItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

}  // namespace

ReportCardPage::ReportCardPage(QWidget* parent) : QWidget(parent), program_(defaultMoatProgram())
{
    setAccessibleName(tr("Report card"));
    auto* layout = new QVBoxLayout(this);

    auto* intro = new QLabel(tr("What an agent could reach, graded A (best) to D by moat probe: inside a fresh "
                                "sandbox with moat's default flags, and on this machine without a sandbox."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* statusRow = new QHBoxLayout;
    sandbox_.status = new QLabel(this);
    sandbox_.status->setAccessibleName(tr("Default sandbox probe status"));
    sandbox_.status->setWordWrap(true);
    sandbox_.status->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    host_.status = new QLabel(this);
    host_.status->setAccessibleName(tr("Host probe status"));
    host_.status->setWordWrap(true);
    host_.status->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    statusRow->addWidget(sandbox_.status, 1);
    statusRow->addWidget(host_.status, 1);
    layout->addLayout(statusRow);

    table_ = new QTableWidget(kCriteria, ColumnCount, this);
    table_->setAccessibleName(tr("Grades and evidence per criterion"));
    table_->setHorizontalHeaderLabels({tr("Criterion"), tr("Default sandbox"), tr("Evidence (sandbox)"),
                                       tr("This host"), tr("Evidence (host)")});
    table_->verticalHeader()->hide();
    table_->setWordWrap(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setTabKeyNavigation(false);  // Tab leaves the table; arrows move inside
    table_->horizontalHeader()->setSectionResizeMode(Criterion, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(SandboxGrade, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(HostGrade, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(SandboxEvidence, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(HostEvidence, QHeaderView::Stretch);
    for (int row = 0; row < kCriteria; ++row) {
        table_->setItem(row, Criterion, readOnlyItem(criterionName(row + 1)));
        for (int column = SandboxGrade; column < ColumnCount; ++column) {
            table_->setItem(row, column, readOnlyItem(QString()));
        }
    }
    layout->addWidget(table_, 1);

    runAgain_ = new QPushButton(tr("Run a&gain"), this);
    runAgain_->setAccessibleName(tr("Run both probes again"));
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(runAgain_);
    layout->addLayout(buttons);
    connect(runAgain_, &QPushButton::clicked, this, &ReportCardPage::runAgain);

    sandbox_.gradeColumn = SandboxGrade;
    sandbox_.texts = {tr("Probing a fresh default sandbox…"), tr("The sandbox probe ran at %1."),
                      tr("The sandbox probe was interrupted before it finished. %1"),
                      tr("The sandbox probe failed (exit status %1): %2")};
    host_.gradeColumn = HostGrade;
    host_.texts = {tr("Probing this host…"), tr("The host probe ran at %1."),
                   tr("The host probe was interrupted before it finished. %1"),
                   tr("The host probe failed (exit status %1): %2")};
    for (Side* side : {&sandbox_, &host_}) {
        side->process = new QProcess(this);
        side->process->setProcessChannelMode(QProcess::SeparateChannels);
        side->status->setText(tr("Not run yet."));
    }
    connect(sandbox_.process, &QProcess::finished, this, [this] { finishSide(sandbox_); });
    connect(host_.process, &QProcess::finished, this, [this] { finishSide(host_); });
    for (Side* side : {&sandbox_, &host_}) {
        connect(side->process, &QProcess::errorOccurred, this, [this, side](QProcess::ProcessError error) {
            if (error == QProcess::FailedToStart) {
                side->status->setText(tr("Could not start %1: %2. moat-manager looks for moat beside itself, "
                                         "then on PATH.")
                                          .arg(program_.isEmpty() ? QStringLiteral("moat") : program_,
                                               side->process->errorString()));
                runAgain_->setEnabled(!isRunning());
                if (!isRunning()) {
                    emit finished();
                }
            }
        });
    }
}

ReportCardPage::~ReportCardPage()
{
    // moat probe stops its sandbox on SIGTERM (docs/probe.md); a kill is
    // the last resort for one that does not answer.
    for (Side* side : {&sandbox_, &host_}) {
        if (side->process->state() != QProcess::NotRunning) {
            side->process->disconnect(this);
            side->process->terminate();
            if (!side->process->waitForFinished(kKillGraceMs)) {
                side->process->kill();
                side->process->waitForFinished(kKillGraceMs);
            }
        }
    }
}

QString ReportCardPage::defaultMoatProgram()
{
    const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("moat"));
    if (QFileInfo(beside).isExecutable()) {
        return beside;
    }
    return QStandardPaths::findExecutable(QStringLiteral("moat"));
}

bool ReportCardPage::isRunning() const
{
    return sandbox_.process->state() != QProcess::NotRunning || host_.process->state() != QProcess::NotRunning;
}

QString ReportCardPage::sandboxStatus() const
{
    return sandbox_.status->text();
}

QString ReportCardPage::hostStatus() const
{
    return host_.status->text();
}

void ReportCardPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!everRun_) {
        runAgain();
    }
}

void ReportCardPage::runAgain()
{
    if (isRunning()) {
        return;
    }
    everRun_ = true;
    runAgain_->setEnabled(false);
    start(sandbox_, {QStringLiteral("probe"), QStringLiteral("--json")});
    start(host_, {QStringLiteral("probe"), QStringLiteral("--host"), QStringLiteral("--json")});
}

void ReportCardPage::start(Side& side, const QStringList& arguments)
{
    for (int row = 0; row < kCriteria; ++row) {
        table_->item(row, side.gradeColumn)->setText(QString());
        table_->item(row, side.gradeColumn + 1)->setText(QString());
    }
    side.status->setText(side.texts.probing);
    // An empty program makes QProcess fail to start, which says so.
    side.process->start(program_, arguments);
}

void ReportCardPage::finishSide(Side& side)
{
    const QByteArray out = side.process->readAllStandardOutput();
    const QString err = QString::fromUtf8(side.process->readAllStandardError()).trimmed().right(kMaxShownError);
    const QJsonObject card = QJsonDocument::fromJson(out).object();
    const bool graded = side.process->exitStatus() == QProcess::NormalExit && side.process->exitCode() == 0 &&
                        card.value(QStringLiteral("criteria")).isArray();
    if (graded) {
        fill(side, card);
        side.status->setText(side.texts.ranAt.arg(QLocale().toString(QTime::currentTime())));
    } else if (side.process->exitStatus() != QProcess::NormalExit) {
        side.status->setText(side.texts.interrupted.arg(err));
    } else {
        side.status->setText(side.texts.failed.arg(side.process->exitCode())
                                 .arg(err.isEmpty() ? tr("it printed no report") : err));
    }
    runAgain_->setEnabled(!isRunning());
    if (!isRunning()) {
        emit finished();
    }
}

void ReportCardPage::fill(const Side& side, const QJsonObject& card)
{
    const QJsonArray criteria = card.value(QStringLiteral("criteria")).toArray();
    for (const QJsonValue& value : criteria) {
        const QJsonObject criterion = value.toObject();
        const int id = criterion.value(QStringLiteral("id")).toInt();
        if (id < 1 || id > kCriteria) {
            continue;
        }
        QStringList evidence;
        for (const QJsonValue& line : criterion.value(QStringLiteral("evidence")).toArray()) {
            evidence.append(line.toString());
        }
        const QString grade = criterion.value(QStringLiteral("grade")).toString();
        QTableWidgetItem* gradeItem = table_->item(id - 1, side.gradeColumn);
        gradeItem->setText(grade);
        gradeItem->setTextAlignment(Qt::AlignCenter);
        QFont bold = gradeItem->font();
        bold.setBold(true);
        gradeItem->setFont(bold);
        gradeItem->setData(Qt::AccessibleTextRole, tr("Grade %1").arg(grade));
        // Plain text items: nothing the probe saw is read as markup.
        table_->item(id - 1, side.gradeColumn + 1)->setText(evidence.join(QLatin1Char('\n')));
        if (criterionName(id).isEmpty()) {
            table_->item(id - 1, Criterion)->setText(criterion.value(QStringLiteral("name")).toString());
        }
    }
    table_->resizeRowsToContents();
}

}  // namespace moat::gui
