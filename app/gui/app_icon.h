// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QIcon>

namespace moat::gui {

// moat-manager's own icon: a tower inside a ring of water, drawn as vector
// shapes at whatever size and device pixel ratio is asked (sharp on a
// high-DPI screen, no image files to ship), with an outline that reads on a
// light and a dark panel.
QIcon appIcon();

}  // namespace moat::gui
