// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QLabel;
class QWidget;

namespace moat::gui {

// The line under a settings page that says what the last action did, or
// moatd's error as moatd worded it: plain text (never markup), selectable so
// that it can be copied into a bug report, bold for an error (no colour of
// its own: safe on a dark theme).
QLabel* makePageMessage(QWidget* parent);
void setPageMessage(QLabel* label, const QString& text, bool error);

}  // namespace moat::gui
