// SPDX-License-Identifier: Apache-2.0
#pragma once

class QApplication;

namespace moat::gui {

// What moat-manager does before its first window: its names (for QSettings
// and the desktop), and the translations of Qt's and moat's strings for
// the user's locale (moat's are built into the program, :/i18n/moat_LANG.qm).
void setUpApplication(QApplication& application);

}  // namespace moat::gui
