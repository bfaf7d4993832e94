// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "timeline_model.h"

#include <QJsonObject>
#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace moat::gui {

class MoatdConnection;
class NetworkSummaryModel;
class OutputPane;
class SessionLauncher;
class TerminalRelay;
class TimelineFilter;

// One session: its output (OutputPane: the owner of the session's terminal
// feeds it with appendOutput() and takes inputEntered()), its timeline
// (filter by kind, search, details of the selected event, "Allow this next
// time" on a denied connection) and its network tab (by host). Reads the
// timeline through `connection` and follows moatd's eventsAppended.
// "Open in terminal" lends the session's terminal, when this application
// holds it (setTerminalSource()), to `moat-manager --attach` in the user's
// terminal emulator (TerminalRelay, TerminalEmulator).
class SessionView : public QWidget
{
    Q_OBJECT
public:
    enum Tab { OutputTab, TimelineTab, NetworkTab };

    SessionView(MoatdConnection* connection, const QString& sessionId, QWidget* parent = nullptr);

    QString sessionId() const { return sessionId_; }
    OutputPane* outputPane() const { return output_; }
    TimelineModel* timelineModel() const { return timeline_; }
    TimelineFilter* timelineFilter() const { return filter_; }
    NetworkSummaryModel* networkModel() const { return network_; }
    QTableView* timelineView() const { return timelineView_; }
    QTableView* networkView() const { return networkView_; }
    QTabWidget* tabs() const { return tabs_; }
    QComboBox* kindFilterBox() const { return kindBox_; }
    QLineEdit* searchBox() const { return search_; }
    QPlainTextEdit* detailsView() const { return details_; }
    QPushButton* allowButton() const { return allow_; }
    QPushButton* openInTerminalButton() const { return openInTerminal_; }
    // What "Open in terminal" last said (which emulator, or why it could not).
    QLabel* terminalNote() const { return terminalNote_; }
    // The full event shown in the details pane (empty when none).
    QJsonObject selectedEvent() const { return selected_; }

    // Where "Allow this next time" writes (default: userProfileDir()).
    void setProfileDirectory(const QString& dir) { profileDir_ = dir; }
    QString profileDirectory() const { return profileDir_; }
    // Shows only `kind` in the timeline (or every kind with nullopt).
    void showKind(std::optional<EventKind> kind);
    // The narrow rule for the selected event ("--allow-host HOST:PORT"), "".
    QString selectedAllowRule() const;

    // The session's terminal is launcher's run called name (a session
    // started from this window). Without it "Open in terminal" is disabled
    // and says why.
    void setTerminalSource(SessionLauncher* launcher, const QString& name);
    // The program run in the terminal emulator as PROGRAM --attach SOCKET:
    // moat-manager itself by default (defaultAttachProgram()).
    void setAttachProgram(const QString& program) { attachProgram_ = program; }
    QString attachProgram() const { return attachProgram_; }
    static QString defaultAttachProgram();

public slots:
    // Opens the confirmation for selectedAllowRule().
    void allowSelectedNextTime();
    // Starts the user's terminal emulator attached to this session's terminal.
    void openInTerminal();

signals:
    // The details of the selected event are shown (for tests and the bench).
    void detailsShown(quint64 seq);
    // A terminal emulator was started, to attach to relay.
    void terminalOpened(TerminalRelay* relay);

private:
    QWidget* buildTimelineTab();
    QWidget* buildNetworkTab();
    void onCurrentChanged(const QModelIndex& current);
    void updateStatus();
    QWidget* buildTerminalBar();
    void updateTerminalButton();

    QString sessionId_;
    QString profileDir_;
    TimelineModel* timeline_;
    TimelineFilter* filter_;
    NetworkSummaryModel* network_;
    QSortFilterProxyModel* networkSorted_;
    OutputPane* output_;
    QTabWidget* tabs_;
    QTableView* timelineView_ = nullptr;
    QTableView* networkView_ = nullptr;
    QComboBox* kindBox_ = nullptr;
    QLineEdit* search_ = nullptr;
    QPlainTextEdit* details_ = nullptr;
    QPushButton* allow_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* openInTerminal_ = nullptr;
    QLabel* terminalNote_ = nullptr;
    QPointer<SessionLauncher> launcher_;
    QString terminalName_;
    QString attachProgram_;
    QPointer<TerminalRelay> watchedRelay_;
    QJsonObject selected_;
    quint64 wantedSeq_ = 0;
};

}  // namespace moat::gui
