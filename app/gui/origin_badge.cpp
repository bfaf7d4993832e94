// SPDX-License-Identifier: Apache-2.0
#include "origin_badge.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace moat::gui {

OriginBadge::OriginBadge(const QString& what, QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    label_ = new QLabel(this);
    label_->setAccessibleName(tr("Where %1 comes from").arg(what));
    reset_ = new QToolButton(this);
    reset_->setText(tr("Reset"));
    reset_->setAccessibleName(tr("Reset %1").arg(what));
    reset_->setToolTip(tr("Put %1 back to the profile's value or moat's default").arg(what));
    layout->addWidget(label_);
    layout->addWidget(reset_);
    connect(reset_, &QToolButton::clicked, this, &OriginBadge::resetRequested);
    setOrigin(ValueOrigin::Default);
}

QString OriginBadge::originText(ValueOrigin origin)
{
    switch (origin) {
    case ValueOrigin::Default:
        return tr("default");
    case ValueOrigin::Profile:
        return tr("from profile");
    case ValueOrigin::User:
        return tr("set by you");
    }
    return {};
}

void OriginBadge::setOrigin(ValueOrigin origin)
{
    origin_ = origin;
    label_->setText(originText(origin));
    reset_->setEnabled(origin == ValueOrigin::User);
}

}  // namespace moat::gui
