// SPDX-License-Identifier: Apache-2.0
#include "origin_badge.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace moat::gui {

namespace {

struct BadgeTexts {
    QString label;     // the accessible name of the origin shown
    QString reset;     // the accessible name of Reset
    QString resetTip;  // what Reset does
};

BadgeTexts textsFor(OriginBadge::Setting setting)
{
    using S = OriginBadge::Setting;
    switch (setting) {
    case S::Hosts:
        return {OriginBadge::tr("Where the network hosts come from"), OriginBadge::tr("Reset the network hosts"),
                OriginBadge::tr("Remove the hosts you added; the profile's hosts stay")};
    case S::NetworkMode:
        return {OriginBadge::tr("Where the network mode comes from"), OriginBadge::tr("Reset the network mode"),
                OriginBadge::tr("Put the network mode back to the profile's value or moat's default")};
    case S::Sudo:
        return {OriginBadge::tr("Where sudo comes from"), OriginBadge::tr("Reset sudo"),
                OriginBadge::tr("Turn sudo off again, moat's default")};
    case S::Docker:
        return {OriginBadge::tr("Where docker comes from"), OriginBadge::tr("Reset docker"),
                OriginBadge::tr("Turn docker off again, moat's default")};
    case S::Yolo:
        return {OriginBadge::tr("Where yolo comes from"), OriginBadge::tr("Reset yolo"),
                OriginBadge::tr("Turn yolo off again, moat's default")};
    case S::Secrets:
        return {OriginBadge::tr("Where the secrets come from"), OriginBadge::tr("Reset the secrets"),
                OriginBadge::tr("Unbind the secrets you chose; the profile's stay")};
    case S::TimeToLive:
        return {OriginBadge::tr("Where the time to live comes from"), OriginBadge::tr("Reset the time to live"),
                OriginBadge::tr("Put the time to live back to the profile's value or moat's default")};
    }
    return {};
}

}  // namespace

OriginBadge::OriginBadge(Setting setting, QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    const BadgeTexts texts = textsFor(setting);
    label_ = new QLabel(this);
    label_->setAccessibleName(texts.label);
    reset_ = new QToolButton(this);
    reset_->setText(tr("Reset"));
    reset_->setAccessibleName(texts.reset);
    reset_->setToolTip(texts.resetTip);
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
