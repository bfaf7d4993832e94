// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

namespace moat::gui {

// A list typed into one line ("api.github.com, *.acme.example"): items
// separated by commas or white space, empty ones dropped. Host patterns and
// header names hold neither, so nothing typed is lost.
QStringList splitListField(const QString& text);
QString joinListField(const QStringList& items);

}  // namespace moat::gui
