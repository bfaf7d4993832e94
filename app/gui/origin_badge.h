// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "run_choices.h"

#include <QWidget>

class QLabel;
class QToolButton;

namespace moat::gui {

// Beside a toggle: where its value came from (moat's default, the profile,
// you) and a button that puts it back to what it would be without you.
class OriginBadge : public QWidget
{
    Q_OBJECT
public:
    // The New sandbox dialog's toggles, each with its own whole sentences
    // (a translation cannot compose them from pieces). A profile can set
    // hosts, secrets, the network mode and the time to live; sudo, docker
    // and yolo are only ever moat's default (off) or yours.
    enum class Setting { Hosts, NetworkMode, Sudo, Docker, Yolo, Secrets, TimeToLive };
    explicit OriginBadge(Setting setting, QWidget* parent = nullptr);
    void setOrigin(ValueOrigin origin);
    ValueOrigin origin() const { return origin_; }
    static QString originText(ValueOrigin origin);

signals:
    void resetRequested();

private:
    QLabel* label_;
    QToolButton* reset_;
    ValueOrigin origin_ = ValueOrigin::Default;
};

}  // namespace moat::gui
