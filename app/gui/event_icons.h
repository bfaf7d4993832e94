// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "timeline_model.h"

#include <QIcon>
#include <QString>

namespace moat::gui {

// The timeline's icon for a kind of event: drawn as vector shapes at the
// size and device pixel ratio asked for (sharp on a high-DPI screen), in
// colours that read on a light and a dark palette, each kind also told
// apart by its shape (not by colour alone).
QIcon eventIcon(EventKind kind);

// The kind's name as the filter and screen readers say it ("Network denied").
QString eventKindName(EventKind kind);

}  // namespace moat::gui
