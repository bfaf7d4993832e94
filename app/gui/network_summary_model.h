// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "timeline_model.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QString>

#include <vector>

namespace moat::gui {

// The session's network tab: one row per host the sandbox reached for, with
// how many connections or requests were allowed and denied and how many DNS
// queries named it. Counts every row the timeline has loaded, and follows
// its appends (rows for new hosts are inserted, counts change in place).
class NetworkSummaryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { HostColumn, AllowedColumn, DeniedColumn, DnsColumn, ColumnCount };

    explicit NetworkSummaryModel(TimelineModel* timeline, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The row of `host`, or -1.
    int rowOf(const QString& host) const { return rowOfHost_.value(host, -1); }

private:
    struct HostCounts {
        QString host;
        quint64 allowed = 0;
        quint64 denied = 0;
        quint64 dns = 0;
    };
    void count(int first, int last);
    void rebuild();

    TimelineModel* timeline_;
    std::vector<HostCounts> rows_;
    QHash<QString, int> rowOfHost_;
};

}  // namespace moat::gui
