// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

namespace moat::gui {

// Text an agent wrote (its reason, the host, path and command it names) made
// safe to show a person: every control character (newlines too), every
// bidirectional override or isolate and every zero-width or other format
// character becomes a visible escape (\n, \x1b, \u{202e}), so that nothing
// the agent sends can move the cursor, restyle the terminal, reorder what
// the user reads or hide a part of it. At most maxChars characters are kept;
// the rest is cut off and said so ("… (120 more characters)").
//
// The result is plain text: callers still show it with Qt::PlainText, never
// as rich text.
QString shownUntrusted(const QString& text, int maxChars = 400);

// The same for a list (a command, flags): each item escaped, joined by
// spaces, items that are empty or hold a space shown in quotes.
QString shownUntrustedList(const QStringList& items, int maxChars = 400);

}  // namespace moat::gui
