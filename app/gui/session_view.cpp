// SPDX-License-Identifier: Apache-2.0
#include "session_view.h"

#include "allow_rule_dialog.h"
#include "event_icons.h"
#include "event_summary.h"
#include "network_summary_model.h"
#include "output_pane.h"
#include "policy/profile.h"
#include "pty_process.h"
#include "session_launcher.h"
#include "terminal_emulator.h"
#include "terminal_relay.h"
#include "timeline_filter.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QProcessEnvironment>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace moat::gui {

namespace {

void setUpTable(QTableView* view)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setTabKeyNavigation(false);  // Tab leaves the table; arrows move in it
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    // Fixed row heights: a million rows are laid out without measuring each.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
}

}  // namespace

SessionView::SessionView(MoatdConnection* connection, const QString& sessionId, QWidget* parent)
    : QWidget(parent),
      sessionId_(sessionId),
      profileDir_(QString::fromStdString(userProfileDir())),
      timeline_(new TimelineModel(connection, sessionId, this)),
      filter_(new TimelineFilter(this)),
      network_(new NetworkSummaryModel(timeline_, this)),
      networkSorted_(new QSortFilterProxyModel(this)),
      output_(new OutputPane(this)),
      tabs_(new QTabWidget(this)),
      attachProgram_(defaultAttachProgram())
{
    setAccessibleName(tr("Session %1").arg(sessionId));
    filter_->setSourceModel(timeline_);
    networkSorted_->setSourceModel(network_);
    networkSorted_->setSortRole(Qt::DisplayRole);

    tabs_->addTab(output_, tr("&Output"));
    tabs_->addTab(buildTimelineTab(), tr("&Timeline"));
    tabs_->addTab(buildNetworkTab(), tr("&Network"));
    tabs_->setAccessibleName(tr("Session views"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildTerminalBar());
    layout->addWidget(tabs_);

    connect(timeline_, &TimelineModel::progress, this, &SessionView::updateStatus);
    connect(timeline_, &TimelineModel::readFailed, this, [this](const QString& message) {
        status_->setText(message);
    });
    // Every page, in the background: the filter and the network tab count
    // the whole log, and the first page is drawn as soon as it is read.
    timeline_->setLoadAll(true);
    if (timeline_->canFetchMore()) {
        timeline_->fetchMore();
    }
}

QWidget* SessionView::buildTimelineTab()
{
    auto* page = new QWidget(this);
    kindBox_ = new QComboBox(page);
    kindBox_->addItem(tr("All events"), -1);
    for (int kind = 0; kind < kEventKindCount; ++kind) {
        kindBox_->addItem(eventIcon(static_cast<EventKind>(kind)), eventKindName(static_cast<EventKind>(kind)), kind);
    }
    kindBox_->setAccessibleName(tr("Show events of kind"));
    search_ = new QLineEdit(page);
    search_->setPlaceholderText(tr("Search type and summary"));
    search_->setClearButtonEnabled(true);
    search_->setAccessibleName(tr("Search the timeline"));
    status_ = new QLabel(page);
    status_->setAccessibleName(tr("Timeline status"));

    auto* kindLabel = new QLabel(tr("Sho&w:"), page);
    kindLabel->setBuddy(kindBox_);
    auto* searchLabel = new QLabel(tr("Searc&h:"), page);
    searchLabel->setBuddy(search_);
    auto* bar = new QHBoxLayout;
    bar->addWidget(kindLabel);
    bar->addWidget(kindBox_);
    bar->addWidget(searchLabel);
    bar->addWidget(search_, 1);
    bar->addWidget(status_);

    timelineView_ = new QTableView(page);
    timelineView_->setModel(filter_);
    setUpTable(timelineView_);
    timelineView_->setAccessibleName(tr("Timeline"));
    timelineView_->horizontalHeader()->resizeSection(TimelineModel::TimeColumn,
                                                     timelineView_->fontMetrics().horizontalAdvance(
                                                         QStringLiteral("0000-00-00 00:00:00.000")) + 16);
    timelineView_->horizontalHeader()->resizeSection(TimelineModel::TypeColumn,
                                                     timelineView_->fontMetrics().horizontalAdvance(
                                                         QStringLiteral("secret.leak_attempt")) + 40);

    details_ = new QPlainTextEdit(page);
    details_->setReadOnly(true);
    details_->setTabChangesFocus(true);
    details_->setAccessibleName(tr("Details of the selected event"));
    details_->setPlaceholderText(tr("Select an event to see all of it."));
    allow_ = new QPushButton(tr("&Allow this next time…"), page);
    allow_->setAccessibleName(tr("Allow this host next time"));
    allow_->setToolTip(tr("Adds the narrow rule for this denied connection to one of your profiles, after you "
                          "confirm the exact text"));
    allow_->setEnabled(false);

    auto* detailsBox = new QWidget(page);
    auto* detailsLayout = new QVBoxLayout(detailsBox);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(details_, 1);
    auto* actions = new QHBoxLayout;
    actions->addStretch(1);
    actions->addWidget(allow_);
    detailsLayout->addLayout(actions);

    auto* split = new QSplitter(Qt::Vertical, page);
    split->addWidget(timelineView_);
    split->addWidget(detailsBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(page);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(kindBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const int kind = kindBox_->itemData(index).toInt();
        if (kind < 0) {
            filter_->showAllKinds();
        } else {
            filter_->showOnly(static_cast<EventKind>(kind));
        }
    });
    // Typing refilters after a short pause, not on every key (a million rows).
    auto* searchDelay = new QTimer(this);
    searchDelay->setSingleShot(true);
    searchDelay->setInterval(200);
    connect(search_, &QLineEdit::textChanged, searchDelay, qOverload<>(&QTimer::start));
    connect(searchDelay, &QTimer::timeout, this, [this] { filter_->setSearchText(search_->text().trimmed()); });
    connect(timelineView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &SessionView::onCurrentChanged);
    connect(allow_, &QPushButton::clicked, this, &SessionView::allowSelectedNextTime);
    return page;
}

QWidget* SessionView::buildTerminalBar()
{
    auto* bar = new QWidget(this);
    terminalNote_ = new QLabel(bar);
    terminalNote_->setWordWrap(true);
    terminalNote_->setAccessibleName(tr("Terminal status"));
    openInTerminal_ = new QPushButton(tr("Open in ter&minal"), bar);
    openInTerminal_->setAccessibleName(tr("Open the session in your terminal emulator"));
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(terminalNote_, 1);
    layout->addWidget(openInTerminal_);
    connect(openInTerminal_, &QPushButton::clicked, this, &SessionView::openInTerminal);
    updateTerminalButton();
    return bar;
}

QString SessionView::defaultAttachProgram()
{
    const QString self = QCoreApplication::applicationFilePath();
    if (QFileInfo(self).fileName() == QLatin1String("moat-manager")) {
        return self;
    }
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/moat-manager");
    if (QFileInfo(beside).isExecutable()) {
        return beside;
    }
    const QString found = QStandardPaths::findExecutable(QStringLiteral("moat-manager"));
    return found.isEmpty() ? QStringLiteral("moat-manager") : found;
}

void SessionView::setTerminalSource(SessionLauncher* launcher, const QString& name)
{
    if (launcher_ != nullptr) {
        launcher_->disconnect(this);
    }
    launcher_ = launcher;
    terminalName_ = name;
    if (launcher != nullptr) {
        connect(launcher, &SessionLauncher::finished, this, [this](const QString& from) {
            if (from == terminalName_) {
                updateTerminalButton();
            }
        });
    }
    updateTerminalButton();
}

void SessionView::updateTerminalButton()
{
    const PtyProcess* terminal = launcher_ != nullptr ? launcher_->terminalFor(terminalName_) : nullptr;
    QString why;
    if (terminal == nullptr) {
        why = tr("This session was not started from this window: its output is in the terminal where it was "
                 "started.");
    } else if (!terminal->isRunning()) {
        why = tr("The session has ended.");
    }
    openInTerminal_->setEnabled(why.isEmpty());
    const QString tip = why.isEmpty() ? tr("Opens your terminal emulator on this session's terminal; the Output "
                                           "tab keeps working")
                                      : why;
    openInTerminal_->setToolTip(tip);
    openInTerminal_->setAccessibleDescription(tip);
}

void SessionView::openInTerminal()
{
    QString error;
    TerminalRelay* relay = launcher_ != nullptr ? launcher_->relayFor(terminalName_, &error) : nullptr;
    if (relay == nullptr) {
        terminalNote_->setText(error.isEmpty() ? openInTerminal_->toolTip() : error);
        return;
    }
    const TerminalEmulator emulator = TerminalEmulator::find(QProcessEnvironment::systemEnvironment());
    if (!emulator.startDetached({attachProgram_, QStringLiteral("--attach"), relay->socketPath()}, &error)) {
        terminalNote_->setText(error);
        return;
    }
    terminalNote_->setText(tr("Starting %1…").arg(QFileInfo(emulator.program()).fileName()));
    if (watchedRelay_ != relay) {
        watchedRelay_ = relay;
        connect(relay, &TerminalRelay::clientAttached, this,
                [this] { terminalNote_->setText(tr("Attached in a terminal window; the Output tab keeps working.")); });
        connect(relay, &TerminalRelay::clientDetached, this, [this] {
            if (watchedRelay_ != nullptr && !watchedRelay_->hasClient()) {
                terminalNote_->setText(tr("The terminal window was closed; the session goes on here."));
            }
        });
    }
    emit terminalOpened(relay);
}

QWidget* SessionView::buildNetworkTab()
{
    networkView_ = new QTableView(this);
    networkView_->setModel(networkSorted_);
    setUpTable(networkView_);
    networkView_->setSortingEnabled(true);
    networkView_->sortByColumn(NetworkSummaryModel::HostColumn, Qt::AscendingOrder);
    networkView_->setAccessibleName(tr("Network by host"));
    networkView_->horizontalHeader()->setSectionResizeMode(NetworkSummaryModel::HostColumn, QHeaderView::Stretch);
    networkView_->horizontalHeader()->setStretchLastSection(false);
    return networkView_;
}

void SessionView::showKind(std::optional<EventKind> kind)
{
    const int wanted = kind ? static_cast<int>(*kind) : -1;
    kindBox_->setCurrentIndex(kindBox_->findData(wanted));
}

void SessionView::updateStatus()
{
    const int loaded = timeline_->rowCount();
    status_->setText(timeline_->isLoading() && static_cast<quint64>(loaded) < timeline_->knownLastSeq()
                         ? tr("%Ln event(s), reading…", nullptr, loaded)
                         : tr("%Ln event(s)", nullptr, loaded));
}

void SessionView::onCurrentChanged(const QModelIndex& current)
{
    selected_ = {};
    allow_->setEnabled(false);
    if (!current.isValid()) {
        details_->clear();
        return;
    }
    const quint64 seq = filter_->data(current, TimelineModel::SeqRole).toULongLong();
    wantedSeq_ = seq;
    details_->setPlainText(tr("Reading event %1…").arg(seq));
    QPointer<SessionView> self(this);
    timeline_->readDetails(seq, [self, seq](const QJsonObject& event) {
        if (!self || self->wantedSeq_ != seq) {
            return;  // another row was selected meanwhile
        }
        self->selected_ = event;
        // Shown as plain text: the event's strings are the sandbox's.
        self->details_->setPlainText(event.isEmpty() ? tr("Event %1 can no longer be read.").arg(seq)
                                                     : QString::fromUtf8(QJsonDocument(event).toJson()));
        self->allow_->setEnabled(!self->selectedAllowRule().isEmpty());
        emit self->detailsShown(seq);
    });
}

QString SessionView::selectedAllowRule() const
{
    return allowSuggestion(selected_);
}

void SessionView::allowSelectedNextTime()
{
    const QString rule = selectedAllowRule();
    if (rule.isEmpty()) {
        return;
    }
    QStringList names;
    for (const std::string& name : profileNames(profileDir_.toStdString(), std::string())) {
        names.append(QString::fromStdString(name));
    }
    auto* dialog = new AllowRuleDialog(rule, profileDir_, names, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("allowRuleDialog"));
    dialog->open();
}

}  // namespace moat::gui
