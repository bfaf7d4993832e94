// SPDX-License-Identifier: Apache-2.0
#include "network_summary_model.h"

namespace moat::gui {

NetworkSummaryModel::NetworkSummaryModel(TimelineModel* timeline, QObject* parent)
    : QAbstractTableModel(parent), timeline_(timeline)
{
    connect(timeline_, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex& where, int first, int last) {
                if (!where.isValid()) {
                    count(first, last);
                }
            });
    connect(timeline_, &QAbstractItemModel::modelReset, this, &NetworkSummaryModel::rebuild);
    rebuild();
}

void NetworkSummaryModel::rebuild()
{
    beginResetModel();
    rows_.clear();
    rowOfHost_.clear();
    endResetModel();
    if (timeline_->rowCount() > 0) {
        count(0, timeline_->rowCount() - 1);
    }
}

void NetworkSummaryModel::count(int first, int last)
{
    std::vector<HostCounts> added;
    QHash<QString, int> addedIndex;
    int changedFirst = static_cast<int>(rows_.size());
    int changedLast = -1;
    for (int row = first; row <= last; ++row) {
        const EventKind kind = timeline_->kindAt(row);
        if (kind != EventKind::NetAllowed && kind != EventKind::NetDenied && kind != EventKind::Dns) {
            continue;
        }
        const QString host = timeline_->hostAt(row);
        if (host.isEmpty()) {
            continue;
        }
        HostCounts* counts = nullptr;
        if (const int existing = rowOfHost_.value(host, -1); existing >= 0) {
            counts = &rows_[static_cast<size_t>(existing)];
            changedFirst = std::min(changedFirst, existing);
            changedLast = std::max(changedLast, existing);
        } else {
            const int at = addedIndex.value(host, -1);
            if (at >= 0) {
                counts = &added[static_cast<size_t>(at)];
            } else {
                addedIndex.insert(host, static_cast<int>(added.size()));
                added.push_back({host});
                counts = &added.back();
            }
        }
        ++(kind == EventKind::NetAllowed ? counts->allowed : kind == EventKind::NetDenied ? counts->denied : counts->dns);
    }
    if (changedLast >= 0) {
        emit dataChanged(index(changedFirst, AllowedColumn), index(changedLast, DnsColumn));
    }
    if (!added.empty()) {
        const int at = static_cast<int>(rows_.size());
        beginInsertRows({}, at, at + static_cast<int>(added.size()) - 1);
        for (HostCounts& counts : added) {
            rowOfHost_.insert(counts.host, static_cast<int>(rows_.size()));
            rows_.push_back(std::move(counts));
        }
        endInsertRows();
    }
}

int NetworkSummaryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int NetworkSummaryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NetworkSummaryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const HostCounts& counts = rows_[static_cast<size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case HostColumn:
            return counts.host;
        case AllowedColumn:
            return counts.allowed;
        case DeniedColumn:
            return counts.denied;
        case DnsColumn:
            return counts.dns;
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != HostColumn) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant NetworkSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case HostColumn:
        return tr("Host");
    case AllowedColumn:
        return tr("Allowed");
    case DeniedColumn:
        return tr("Denied");
    case DnsColumn:
        return tr("DNS queries");
    default:
        return {};
    }
}

}  // namespace moat::gui
