// SPDX-License-Identifier: Apache-2.0
#include "session_list_model.h"

#include "moatd_connection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace moat::gui {

namespace {

SessionRow rowFromJson(const QJsonObject& object)
{
    SessionRow row;
    row.id = object.value(QLatin1String("id")).toString();
    row.name = object.value(QLatin1String("name")).toString();
    row.state = object.value(QLatin1String("state")).toString();
    row.image = object.value(QLatin1String("image")).toString();
    for (const QJsonValue& flag : object.value(QLatin1String("flags")).toArray()) {
        row.flags << flag.toString();
    }
    row.started = QDateTime::fromString(object.value(QLatin1String("started")).toString(), Qt::ISODate);
    row.expires = QDateTime::fromString(object.value(QLatin1String("expires")).toString(), Qt::ISODate);
    const QJsonValue exitCode = object.value(QLatin1String("exit_code"));
    row.hasExitCode = exitCode.isDouble();
    row.exitCode = exitCode.toInt();
    return row;
}

}  // namespace

SessionListModel::SessionListModel(MoatdConnection* moatd, QObject* parent) : QAbstractTableModel(parent), moatd_(moatd)
{
    connect(moatd_, &MoatdConnection::sessionStarted, this, &SessionListModel::refresh);
    connect(moatd_, &MoatdConnection::sessionEnded, this, &SessionListModel::refresh);
    connect(moatd_, &MoatdConnection::linkChanged, this, [this](bool linked) {
        if (linked) {
            refresh();
        }
    });
    countdown_ = new QTimer(this);
    countdown_->setInterval(1000);
    connect(countdown_, &QTimer::timeout, this, [this]() {
        if (!rows_.isEmpty()) {
            emit dataChanged(index(0, TimeLeft), index(rowCount() - 1, TimeLeft), {Qt::DisplayRole});
        }
    });
    countdown_->start();
}

int SessionListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int SessionListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SessionListModel::timeLeftText(const QDateTime& expires, const QDateTime& now)
{
    if (!expires.isValid()) {
        return {};
    }
    const qint64 seconds = now.secsTo(expires);
    if (seconds <= 0) {
        return tr("expired");
    }
    const qint64 hours = seconds / 3600;
    const qint64 minutes = (seconds % 3600) / 60;
    const qint64 rest = seconds % 60;
    if (hours > 0) {
        return tr("%1h %2m %3s").arg(hours).arg(minutes, 2, 10, QLatin1Char('0')).arg(rest, 2, 10, QLatin1Char('0'));
    }
    return tr("%1m %2s").arg(minutes).arg(rest, 2, 10, QLatin1Char('0'));
}

QString SessionListModel::stateText(const QString& state)
{
    static const struct {
        const char* state;
        const char* text;
    } kStates[] = {
        {"starting", QT_TR_NOOP("starting")}, {"running", QT_TR_NOOP("running")},
        {"exited", QT_TR_NOOP("exited")},     {"stopped", QT_TR_NOOP("stopped")},
        {"expired", QT_TR_NOOP("expired")},   {"failed", QT_TR_NOOP("failed")},
    };
    for (const auto& known : kStates) {
        if (state == QLatin1String(known.state)) {
            return tr(known.text);
        }
    }
    return state;
}

QVariant SessionListModel::displayText(const SessionRow& row, int column) const
{
    switch (column) {
    case Name:
        return row.name;
    case State:
        return stateText(row.state);
    case Image:
        return row.image;
    case Flags:
        return row.flags.join(QLatin1String("  "));
    case TimeLeft:
        return row.isRunning() ? timeLeftText(row.expires, QDateTime::currentDateTimeUtc()) : QString();
    case ExitStatus:
        return row.hasExitCode ? QString::number(row.exitCode) : QString();
    case Started:
        return QLocale().toString(row.started.toLocalTime(), QLocale::ShortFormat);
    case Id:
        return row.id;
    default:
        return {};
    }
}

QVariant SessionListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rows_.size()) {
        return {};
    }
    const SessionRow& row = rows_.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, index.column());
    case Qt::ToolTipRole:
        if (index.column() == Flags) {
            return row.flags.isEmpty() ? tr("No extra powers") : row.flags.join(QLatin1Char('\n'));
        }
        return {};
    case SearchTextRole:
        return QStringList{row.name, row.state, stateText(row.state), row.image, row.flags.join(QLatin1Char(' ')), row.id}.join(
            QLatin1Char(' '));
    case SessionIdRole:
        return row.id;
    case RunningRole:
        return row.isRunning();
    default:
        return {};
    }
}

QVariant SessionListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("Name");
    case State:
        return tr("State");
    case Image:
        return tr("Image");
    case Flags:
        return tr("Flags");
    case TimeLeft:
        return tr("Time left");
    case ExitStatus:
        return tr("Exit status");
    case Started:
        return tr("Started");
    case Id:
        return tr("Session");
    default:
        return {};
    }
}

const SessionRow* SessionListModel::rowFor(const QString& id) const
{
    for (const SessionRow& row : rows_) {
        if (row.id == id) {
            return &row;
        }
    }
    return nullptr;
}

void SessionListModel::refresh()
{
    moatd_->listSessions(true, [this](const MoatdAnswer& answer) {
        if (!answer.ok) {
            emit refreshFailed(answer.errorMessage);
            return;
        }
        if (!setSessionsJson(answer.value)) {
            emit refreshFailed(tr("moatd sent a session list that is not a JSON array."));
            return;
        }
        emit refreshed();
    });
}

bool SessionListModel::setSessionsJson(const QString& json)
{
    const QJsonDocument document = QJsonDocument::fromJson(json.toUtf8());
    if (!document.isArray()) {
        return false;
    }
    QList<SessionRow> fresh;
    for (const QJsonValue& value : document.array()) {
        fresh << rowFromJson(value.toObject());
    }
    // Newest first: the session just started is at the top.
    std::stable_sort(fresh.begin(), fresh.end(),
                     [](const SessionRow& a, const SessionRow& b) { return a.started > b.started; });
    beginResetModel();
    rows_ = std::move(fresh);
    endResetModel();
    return true;
}

}  // namespace moat::gui
