// SPDX-License-Identifier: Apache-2.0
#include "list_field.h"

#include <QRegularExpression>

namespace moat::gui {

QStringList splitListField(const QString& text)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    return text.split(separators, Qt::SkipEmptyParts);
}

QString joinListField(const QStringList& items)
{
    return items.join(QStringLiteral(", "));
}

}  // namespace moat::gui
