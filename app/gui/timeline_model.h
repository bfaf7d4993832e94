// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "moatd_connection.h"

#include <QAbstractTableModel>
#include <QByteArray>
#include <QHash>
#include <QStringList>

#include <functional>
#include <vector>

namespace moat::gui {

// What kind of event a timeline row is, for icons and the filter.
enum class EventKind : quint8 {
    Exec,
    NetAllowed,
    NetDenied,
    Dns,
    Secret,
    Approval,
    Checkpoint,
    Expiry,
    Session,
    Other,
};
constexpr int kEventKindCount = static_cast<int>(EventKind::Other) + 1;

EventKind eventKindOf(QStringView type);

// One session's timeline (moatd's ReadTimeline: lines of events.jsonl) as a
// table: time, type, summary. Built for a session of a million events:
//  - rows come in pages (canFetchMore/fetchMore), asynchronously: the window
//    never waits on the bus;
//  - new events (MoatdConnection::eventsAppended) are appended with
//    beginInsertRows only, never a reset;
//  - a row keeps its seq, time, kind, type and a short summary in packed
//    arrays (about 80 bytes a row); the full event (`details`) is read again
//    by seq when a row is selected.
// Trust: every field comes from the sandbox's own doing (a host it asked
// for, a command line); it is shown as plain text, never interpreted.
class TimelineModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, TypeColumn, SummaryColumn, ColumnCount };
    enum Role {
        SeqRole = Qt::UserRole + 1,  // quint64
        KindRole,                    // int (EventKind)
        TypeNameRole,                // QString, e.g. "net.deny"
        HostRole,                    // QString, "" when the event names none
    };

    // The page reader: lines with seq > afterSeq, at most max, answered
    // through `reply` (now or later). MoatdConnection::readTimeline in the
    // application; the bench and unit tests feed their own.
    using Reader = std::function<void(quint64 afterSeq, uint max, MoatdConnection::Reply reply)>;

    explicit TimelineModel(Reader reader, QObject* parent = nullptr);
    // Reads session `sessionId` through `connection` and follows its
    // eventsAppended signal.
    TimelineModel(MoatdConnection* connection, const QString& sessionId, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent = {}) const override;
    void fetchMore(const QModelIndex& parent = {}) override;

    void setPageSize(uint events) { pageSize_ = events; }
    uint pageSize() const { return pageSize_; }
    // Keep fetching pages in the background until the log's end, one at a
    // time (the filter and the network tab then see every event).
    void setLoadAll(bool all);
    // The newest seq moatd has announced (or loaded); 0 when none.
    quint64 knownLastSeq() const { return knownLastSeq_; }
    bool isLoading() const { return pending_; }
    QString lastError() const { return lastError_; }

    // Fast accessors for the filter and the network tab (no QVariant).
    EventKind kindAt(int row) const { return static_cast<EventKind>(kinds_[static_cast<size_t>(row)]); }
    quint64 seqAt(int row) const { return seqs_[static_cast<size_t>(row)]; }
    QString typeAt(int row) const { return types_.at(typeIds_[static_cast<size_t>(row)]); }
    QString hostAt(int row) const { return hosts_.at(hostIds_[static_cast<size_t>(row)]); }
    QString summaryAt(int row) const;
    // Whether the row's type or summary contains `text` (case-insensitive).
    bool rowContains(int row, const QString& text) const;
    // The bytes kept for rows, for the bench.
    qsizetype storageBytes() const;

    // The full event of `seq` (its JSON object), read again from moatd;
    // answered through `done` with an empty object when it is gone.
    void readDetails(quint64 seq, std::function<void(const QJsonObject&)> done);

public slots:
    // From MoatdConnection::eventsAppended (already checked for this session).
    void onEventsAppended(quint64 lastSeq);

signals:
    // After each page: how many rows are loaded and the newest seq known.
    void progress(int loaded, quint64 lastSeq);
    void readFailed(const QString& message);

private:
    // One event as parsed, before its strings are interned.
    struct ParsedRow {
        quint64 seq;
        qint64 time;
        EventKind kind;
        QString type;
        QString host;
        QByteArray summary;  // UTF-8
    };
    // Pages at least this large are parsed on a worker thread.
    static constexpr qsizetype kParseInBackgroundBytes = 256 * 1024;

    void request(quint64 afterSeq, uint max);
    void onPage(const MoatdAnswer& answer, uint asked);
    // Thread-safe: touches nothing of the model.
    static std::vector<ParsedRow> parseLines(const QByteArray& lines, quint64 after, uint* lineCount);
    void appendRows(std::vector<ParsedRow> rows, uint lineCount, uint asked);
    quint16 intern(QStringList& table, QHash<QString, quint16>& index, const QString& value);
    void maybeContinue();

    Reader reader_;
    uint pageSize_ = 10000;
    bool pending_ = false;
    bool atEnd_ = false;
    bool loadAll_ = false;
    quint64 knownLastSeq_ = 0;
    QString lastError_;

    // One entry per row, in seq order.
    std::vector<quint64> seqs_;
    std::vector<qint64> times_;  // ms since the epoch, UTC
    std::vector<quint8> kinds_;
    std::vector<quint16> typeIds_;
    std::vector<quint16> hostIds_;
    std::vector<quint32> summaryEnds_;  // summary of row i: [end(i-1), end(i)) in summaryText_
    QByteArray summaryText_;            // UTF-8
    QStringList types_;
    QHash<QString, quint16> typeIndex_;
    QStringList hosts_;
    QHash<QString, quint16> hostIndex_;
};

}  // namespace moat::gui
