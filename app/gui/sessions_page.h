// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QCheckBox;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace moat::gui {

class MoatdConnection;
class SessionListModel;

// The Sessions window's page: running and past sessions with name, state,
// image, flags, a live countdown to expiry and the exit status; start, stop,
// renew and open; filter and search.
class SessionsPage : public QWidget
{
    Q_OBJECT
public:
    SessionsPage(MoatdConnection* moatd, SessionListModel* sessions, QWidget* parent = nullptr);

    // The selected session's id; empty when none is selected.
    QString selectedId() const;
    bool selectSession(const QString& id);
    QTableView* table() const { return table_; }
    // Asks moatd to push the session's expiry out (ttl empty: its own).
    void renew(const QString& id, const QString& ttl);

signals:
    void newSandboxRequested();
    void openRequested(const QString& sessionId);
    // A message for the status bar (a refusal from moatd, a new expiry).
    void notice(const QString& message);

private:
    void updateButtons();
    void stopSelected();
    void renewSelected();

    MoatdConnection* moatd_;
    SessionListModel* sessions_;
    QSortFilterProxyModel* running_ = nullptr;
    QSortFilterProxyModel* search_ = nullptr;
    QTableView* table_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QCheckBox* showPast_ = nullptr;
    QPushButton* stop_ = nullptr;
    QPushButton* renew_ = nullptr;
    QPushButton* open_ = nullptr;
};

}  // namespace moat::gui
