// SPDX-License-Identifier: Apache-2.0
#include "timeline_filter.h"

namespace moat::gui {

TimelineFilter::TimelineFilter(QObject* parent) : QSortFilterProxyModel(parent)
{
    kinds_.set();
    setDynamicSortFilter(false);  // appended rows are filtered as they come; nothing is sorted
}

void TimelineFilter::setSourceModel(QAbstractItemModel* source)
{
    timeline_ = qobject_cast<TimelineModel*>(source);
    QSortFilterProxyModel::setSourceModel(source);
}

void TimelineFilter::setKindShown(EventKind kind, bool shown)
{
    if (isKindShown(kind) != shown) {
        kinds_.set(static_cast<size_t>(kind), shown);
        refilter();
    }
}

void TimelineFilter::showOnly(EventKind kind)
{
    kinds_.reset();
    kinds_.set(static_cast<size_t>(kind));
    refilter();
}

void TimelineFilter::showAllKinds()
{
    if (!kinds_.all()) {
        kinds_.set();
        refilter();
    }
}

void TimelineFilter::setSearchText(const QString& text)
{
    if (text != text_) {
        text_ = text;
        refilter();
    }
}

void TimelineFilter::refilter()
{
    invalidateRowsFilter();
}

bool TimelineFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (sourceParent.isValid() || timeline_ == nullptr) {
        return !sourceParent.isValid();
    }
    if (!kinds_.test(static_cast<size_t>(timeline_->kindAt(sourceRow)))) {
        return false;
    }
    return text_.isEmpty() || timeline_->rowContains(sourceRow, text_);
}

}  // namespace moat::gui
