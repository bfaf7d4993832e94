// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "timeline_model.h"

#include <QSortFilterProxyModel>

#include <bitset>

namespace moat::gui {

// The timeline as the user filtered it: by kind of event (any set of
// EventKind) and by text in the type or summary (case-insensitive, plain
// text, not a pattern). Reads TimelineModel's packed rows directly: no
// QVariant per row, so a filter over a million rows stays well under a
// second. Keeps the source's order (no sorting: the timeline is in seq order).
class TimelineFilter : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TimelineFilter(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* source) override;

    void setKindShown(EventKind kind, bool shown);
    bool isKindShown(EventKind kind) const { return kinds_.test(static_cast<size_t>(kind)); }
    // Shows exactly `kind` (and hides every other kind).
    void showOnly(EventKind kind);
    void showAllKinds();
    void setSearchText(const QString& text);
    QString searchText() const { return text_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    void refilter();

    TimelineModel* timeline_ = nullptr;
    std::bitset<kEventKindCount> kinds_;
    QString text_;
};

}  // namespace moat::gui
