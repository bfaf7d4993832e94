// SPDX-License-Identifier: Apache-2.0
#include "timeline_model.h"

#include "event_icons.h"
#include "event_summary.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

#include <algorithm>
#include <memory>

namespace moat::gui {

namespace {

// "2026-12-01T13:34:57.155Z" to ms since the epoch without QDateTime's
// general parser (a million rows); anything else goes through QDateTime.
qint64 parseTime(const QString& ts)
{
    auto digits = [&ts](int from, int count, int* out) {
        int value = 0;
        for (int i = from; i < from + count; ++i) {
            const char16_t c = ts.at(i).unicode();
            if (c < u'0' || c > u'9') {
                return false;
            }
            value = value * 10 + (c - u'0');
        }
        *out = value;
        return true;
    };
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0;
    if (ts.size() == 24 && ts.at(23) == QLatin1Char('Z') && digits(0, 4, &y) && digits(5, 2, &mo) &&
        digits(8, 2, &d) && digits(11, 2, &h) && digits(14, 2, &mi) && digits(17, 2, &s) && digits(20, 3, &ms)) {
        // Days from the civil date (proleptic Gregorian).
        const int yy = y - (mo <= 2 ? 1 : 0);
        const int era = yy / 400;
        const int yoe = yy - era * 400;
        const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        const qint64 days = static_cast<qint64>(era) * 146097 + doe - 719468;
        return ((days * 24 + h) * 60 + mi) * 60000LL + s * 1000LL + ms;
    }
    const QDateTime parsed = QDateTime::fromString(ts, Qt::ISODateWithMs);
    return parsed.isValid() ? parsed.toMSecsSinceEpoch() : 0;
}

}  // namespace

EventKind eventKindOf(QStringView type)
{
    if (type == u"exec") {
        return EventKind::Exec;
    }
    if (type == u"net.allow") {
        return EventKind::NetAllowed;
    }
    if (type == u"net.deny" || type == u"net.error") {
        return EventKind::NetDenied;
    }
    if (type.startsWith(u"dns.")) {
        return EventKind::Dns;
    }
    if (type.startsWith(u"secret.")) {
        return EventKind::Secret;
    }
    if (type.startsWith(u"approval.")) {
        return EventKind::Approval;
    }
    if (type.startsWith(u"checkpoint")) {
        return EventKind::Checkpoint;
    }
    if (type.startsWith(u"ttl.")) {
        return EventKind::Expiry;
    }
    if (type.startsWith(u"session.")) {
        return EventKind::Session;
    }
    return EventKind::Other;
}

TimelineModel::TimelineModel(Reader reader, QObject* parent)
    : QAbstractTableModel(parent), reader_(std::move(reader))
{
    hosts_.append(QString());  // id 0: no host
    hostIndex_.insert(QString(), 0);
}

TimelineModel::TimelineModel(MoatdConnection* connection, const QString& sessionId, QObject* parent)
    : TimelineModel(
          [connection, sessionId](quint64 afterSeq, uint max, MoatdConnection::Reply reply) {
              connection->readTimeline(sessionId, afterSeq, max, std::move(reply));
          },
          parent)
{
    connect(connection, &MoatdConnection::eventsAppended, this,
            [this, sessionId](const QString& id, quint64 lastSeq, uint) {
                if (id == sessionId) {
                    onEventsAppended(lastSeq);
                }
            });
}

int TimelineModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(seqs_.size());
}

int TimelineModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString TimelineModel::summaryAt(int row) const
{
    const auto r = static_cast<size_t>(row);
    const quint32 begin = r == 0 ? 0 : summaryEnds_[r - 1];
    return QString::fromUtf8(summaryText_.constData() + begin, summaryEnds_[r] - begin);
}

bool TimelineModel::rowContains(int row, const QString& text) const
{
    return typeAt(row).contains(text, Qt::CaseInsensitive) || summaryAt(row).contains(text, Qt::CaseInsensitive);
}

qsizetype TimelineModel::storageBytes() const
{
    const size_t perRow = sizeof(quint64) + sizeof(qint64) + sizeof(quint8) + 2 * sizeof(quint16) + sizeof(quint32);
    return static_cast<qsizetype>(seqs_.capacity() * perRow) + summaryText_.capacity();
}

QVariant TimelineModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const int row = index.row();
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QDateTime::fromMSecsSinceEpoch(times_[static_cast<size_t>(row)], Qt::UTC)
                .toLocalTime()
                .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
        case TypeColumn:
            return typeAt(row);
        case SummaryColumn:
            return summaryAt(row);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == SummaryColumn) {
            return summaryAt(row);
        }
        if (index.column() == TypeColumn) {
            return eventKindName(kindAt(row));
        }
        return {};
    case Qt::DecorationRole:
        return index.column() == TypeColumn ? QVariant(eventIcon(kindAt(row))) : QVariant();
    case Qt::AccessibleTextRole:
        if (index.column() == TypeColumn) {
            return eventKindName(kindAt(row)) + QStringLiteral(": ") + typeAt(row);
        }
        return {};
    case SeqRole:
        return seqAt(row);
    case KindRole:
        return static_cast<int>(kindAt(row));
    case TypeNameRole:
        return typeAt(row);
    case HostRole:
        return hostAt(row);
    default:
        return {};
    }
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case TypeColumn:
        return tr("Type");
    case SummaryColumn:
        return tr("Summary");
    default:
        return {};
    }
}

bool TimelineModel::canFetchMore(const QModelIndex& parent) const
{
    if (parent.isValid() || pending_) {
        return false;
    }
    const quint64 loaded = seqs_.empty() ? 0 : seqs_.back();
    return !atEnd_ || knownLastSeq_ > loaded;
}

void TimelineModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent)) {
        return;
    }
    request(seqs_.empty() ? 0 : seqs_.back(), pageSize_);
}

void TimelineModel::setLoadAll(bool all)
{
    loadAll_ = all;
    maybeContinue();
}

void TimelineModel::onEventsAppended(quint64 lastSeq)
{
    knownLastSeq_ = std::max(knownLastSeq_, lastSeq);
    // At the log's end the new lines are read at once; before it, they wait
    // for the view (or loadAll) to fetch the pages in between.
    if (atEnd_ && !pending_) {
        fetchMore();
    }
}

void TimelineModel::request(quint64 afterSeq, uint max)
{
    pending_ = true;
    QPointer<TimelineModel> self(this);
    reader_(afterSeq, max, [self, max](const MoatdAnswer& answer) {
        if (self) {
            self->onPage(answer, max);
        }
    });
}

void TimelineModel::onPage(const MoatdAnswer& answer, uint asked)
{
    pending_ = false;
    if (!answer.ok) {
        lastError_ = answer.errorMessage.isEmpty() ? answer.errorName : answer.errorMessage;
        emit readFailed(tr("The timeline cannot be read from moatd: %1").arg(lastError_));
        return;
    }
    lastError_.clear();
    const quint64 after = seqs_.empty() ? 0 : seqs_.back();
    QByteArray lines = answer.value.toUtf8();
    if (lines.size() < kParseInBackgroundBytes) {
        uint count = 0;
        std::vector<ParsedRow> rows = parseLines(lines, after, &count);
        appendRows(std::move(rows), count, asked);
        return;
    }
    // A large page is parsed off the window's thread (a page of 10,000
    // events takes longer than a frame); the rows are added back on it.
    // pending_ stays set until then: one page at a time, in order.
    pending_ = true;
    QPointer<TimelineModel> self(this);
    QThreadPool::globalInstance()->start([self, lines = std::move(lines), after, asked] {
        auto count = std::make_shared<uint>(0);
        auto rows = std::make_shared<std::vector<ParsedRow>>(parseLines(lines, after, count.get()));
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, rows, count, asked] {
                if (self) {
                    self->appendRows(std::move(*rows), *count, asked);
                }
            },
            Qt::QueuedConnection);
    });
}

void TimelineModel::maybeContinue()
{
    if (pending_) {
        return;
    }
    const quint64 loaded = seqs_.empty() ? 0 : seqs_.back();
    if ((loadAll_ && !atEnd_) || (atEnd_ && knownLastSeq_ > loaded)) {
        fetchMore();
    }
}

quint16 TimelineModel::intern(QStringList& table, QHash<QString, quint16>& index, const QString& value)
{
    const auto found = index.constFind(value);
    if (found != index.constEnd()) {
        return *found;
    }
    if (table.size() >= 0xffff) {
        return 0;  // a flood of distinct names: the rest share the empty entry
    }
    const auto id = static_cast<quint16>(table.size());
    table.append(value);
    index.insert(value, id);
    return id;
}

std::vector<TimelineModel::ParsedRow> TimelineModel::parseLines(const QByteArray& lines, quint64 after,
                                                               uint* lineCount)
{
    std::vector<ParsedRow> rows;
    quint64 last = after;
    qsizetype from = 0;
    *lineCount = 0;
    while (from < lines.size()) {
        qsizetype end = lines.indexOf('\n', from);
        if (end < 0) {
            end = lines.size();
        }
        const QByteArray line = QByteArray::fromRawData(lines.constData() + from, end - from);
        from = end + 1;
        if (line.isEmpty()) {
            continue;
        }
        ++*lineCount;
        const QJsonObject event = QJsonDocument::fromJson(line).object();
        const auto seq = static_cast<quint64>(event.value(QLatin1String("seq")).toInteger());
        if (seq <= last) {
            continue;  // out of order or repeated: seq only grows in a log
        }
        last = seq;
        EventSummary summary = summarizeEvent(event);
        const EventKind kind = eventKindOf(summary.type);
        rows.push_back({seq, parseTime(event.value(QLatin1String("ts")).toString()), kind,
                        printable(summary.type, 64), std::move(summary.host), summary.summary.toUtf8()});
    }
    return rows;
}

void TimelineModel::appendRows(std::vector<ParsedRow> page, uint lineCount, uint asked)
{
    pending_ = false;
    atEnd_ = lineCount < asked;
    // Rows already here (a page that raced an append) are not added twice.
    const quint64 loaded = seqs_.empty() ? 0 : seqs_.back();
    const auto fresh = std::find_if(page.begin(), page.end(), [loaded](const ParsedRow& row) { return row.seq > loaded; });
    page.erase(page.begin(), fresh);
    if (!page.empty()) {
        const int first = rowCount();
        beginInsertRows({}, first, first + static_cast<int>(page.size()) - 1);
        for (ParsedRow& row : page) {
            seqs_.push_back(row.seq);
            times_.push_back(row.time);
            kinds_.push_back(static_cast<quint8>(row.kind));
            typeIds_.push_back(intern(types_, typeIndex_, row.type));
            hostIds_.push_back(row.host.isEmpty() ? quint16(0) : intern(hosts_, hostIndex_, row.host));
            summaryText_.append(row.summary);
            summaryEnds_.push_back(static_cast<quint32>(summaryText_.size()));
        }
        endInsertRows();
        knownLastSeq_ = std::max(knownLastSeq_, seqs_.back());
    }
    emit progress(rowCount(), knownLastSeq_);
    maybeContinue();
}

void TimelineModel::readDetails(quint64 seq, std::function<void(const QJsonObject&)> done)
{
    reader_(seq == 0 ? 0 : seq - 1, 1, [seq, done = std::move(done)](const MoatdAnswer& answer) {
        const QJsonObject event = answer.ok ? QJsonDocument::fromJson(answer.value.toUtf8().trimmed()).object()
                                            : QJsonObject();
        done(static_cast<quint64>(event.value(QLatin1String("seq")).toInteger()) == seq ? event : QJsonObject());
    });
}

}  // namespace moat::gui
