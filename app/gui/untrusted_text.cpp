// SPDX-License-Identifier: Apache-2.0
#include "untrusted_text.h"

#include <QCoreApplication>

namespace moat::gui {

namespace {

// Characters that change how the rest of a line is laid out or read, or
// that cannot be seen at all: shown as their code instead.
bool mustEscape(char32_t c)
{
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
        return true;  // C0 and C1 controls, DEL
    }
    switch (QChar::category(c)) {
        case QChar::Other_Format:       // bidi overrides and isolates, zero-width joiners, BOM
        case QChar::Other_Control:
        case QChar::Other_Surrogate:    // a lone half of a pair
        case QChar::Other_NotAssigned:
        case QChar::Separator_Line:
        case QChar::Separator_Paragraph:
            return true;
        default:
            return false;
    }
}

QString escaped(char32_t c)
{
    switch (c) {
        case U'\n':
            return QStringLiteral("\\n");
        case U'\r':
            return QStringLiteral("\\r");
        case U'\t':
            return QStringLiteral("\\t");
        default:
            break;
    }
    if (c < 0x100) {
        return QStringLiteral("\\x%1").arg(static_cast<uint>(c), 2, 16, QLatin1Char('0'));
    }
    return QStringLiteral("\\u{%1}").arg(static_cast<uint>(c), 4, 16, QLatin1Char('0'));
}

}  // namespace

QString shownUntrusted(const QString& text, int maxChars)
{
    QString shown;
    int kept = 0;
    int cut = 0;
    for (const char32_t c : text.toUcs4()) {
        if (kept >= maxChars) {
            ++cut;
            continue;
        }
        if (c == U'\\') {
            shown += QStringLiteral("\\\\");  // an escape the agent typed stays distinguishable from ours
        } else if (mustEscape(c)) {
            shown += escaped(c);
        } else {
            shown += QString::fromUcs4(&c, 1);
        }
        ++kept;
    }
    if (cut > 0) {
        shown += QCoreApplication::translate("moat::gui::UntrustedText", "… (%n more characters)", nullptr, cut);
    }
    return shown;
}

QString shownUntrustedList(const QStringList& items, int maxChars)
{
    QStringList quoted;
    for (const QString& item : items) {
        const bool plain = !item.isEmpty() && !item.contains(QLatin1Char(' '));
        quoted.append(plain ? item : QLatin1Char('"') + item + QLatin1Char('"'));
    }
    return shownUntrusted(quoted.join(QLatin1Char(' ')), maxChars);
}

}  // namespace moat::gui
