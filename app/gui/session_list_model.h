// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

class QTimer;

namespace moat::gui {

class MoatdConnection;

// One row of `moat ps --all --json` (CLI.md), as moatd's ListSessions gives it.
struct SessionRow {
    QString id;
    QString name;
    QString state;
    QString image;
    QStringList flags;
    QDateTime started;
    QDateTime expires;
    bool hasExitCode = false;
    int exitCode = 0;

    bool isRunning() const { return state == QLatin1String("running"); }
};

// Running and past sessions. Refreshed from moatd when a session starts or
// ends and when moatd comes back; the time-left column counts down every
// second without asking moatd (the expiry is moatd's, the clock is ours).
class SessionListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, State, Image, Flags, TimeLeft, ExitStatus, Started, Id, ColumnCount };
    // The whole row's text, for the filter.
    static constexpr int SearchTextRole = Qt::UserRole + 1;
    static constexpr int SessionIdRole = Qt::UserRole + 2;
    static constexpr int RunningRole = Qt::UserRole + 3;

    explicit SessionListModel(MoatdConnection* moatd, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const SessionRow* rowFor(const QString& id) const;
    const QList<SessionRow>& rows() const { return rows_; }

    // Asks moatd again; `refreshed` follows with the new rows.
    void refresh();
    // Replaces the rows from ListSessions' JSON. false when it is not an array.
    bool setSessionsJson(const QString& json);

    // "2h 05m 09s", "expired"; empty when no expiry is known.
    static QString timeLeftText(const QDateTime& expires, const QDateTime& now);
    // A state as moatd names it (CLI.md: moat ps), in the user's language;
    // a state this version does not know is shown as moatd sent it.
    static QString stateText(const QString& state);

signals:
    void refreshed();
    void refreshFailed(const QString& message);

private:
    QVariant displayText(const SessionRow& row, int column) const;

    MoatdConnection* moatd_;
    QList<SessionRow> rows_;
    QTimer* countdown_ = nullptr;
};

}  // namespace moat::gui
