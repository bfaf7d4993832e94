// SPDX-License-Identifier: Apache-2.0
#include "page_message.h"

#include <QCoreApplication>
#include <QLabel>

namespace moat::gui {

QLabel* makePageMessage(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setAccessibleName(QCoreApplication::translate("PageMessage", "Result of the last action"));
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    return label;
}

void setPageMessage(QLabel* label, const QString& text, bool error)
{
    label->setText(text);
    QFont font = label->font();
    font.setBold(error);
    label->setFont(font);
    label->setAccessibleDescription(error ? QCoreApplication::translate("PageMessage", "Error") : QString());
}

}  // namespace moat::gui
