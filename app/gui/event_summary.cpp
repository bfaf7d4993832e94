// SPDX-License-Identifier: Apache-2.0
#include "event_summary.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStringList>

namespace moat::gui {

namespace {

constexpr int kSummaryChars = 200;

// The summaries' own words, in whole phrases a translation can reorder.
QString translated(const char* text)
{
    return QCoreApplication::translate("moat::gui::EventSummary", text);
}

QString str(const QJsonObject& data, const char* key)
{
    const QJsonValue value = data.value(QLatin1String(key));
    if (value.isString()) {
        return value.toString();
    }
    if (value.isDouble()) {
        return QString::number(value.toInteger());
    }
    if (value.isBool()) {
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    }
    return {};
}

QString joined(const QJsonArray& words)
{
    QStringList parts;
    for (const QJsonValue& word : words) {
        parts.append(word.toString());
    }
    return parts.join(QLatin1Char(' '));
}

QString withPort(const QJsonObject& data)
{
    const QString host = str(data, "host");
    const QString port = str(data, "port");
    return port.isEmpty() ? host : host + QLatin1Char(':') + port;
}

// Every scalar field as key=value, for the types this file does not know.
QString generic(const QJsonObject& data)
{
    QStringList parts;
    for (auto it = data.begin(); it != data.end(); ++it) {
        const QJsonValue& value = it.value();
        if (value.isArray() || value.isObject()) {
            parts.append(it.key() + QLatin1Char('=') +
                         QString::fromUtf8(value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                                           : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact)));
        } else {
            parts.append(it.key() + QLatin1Char('=') + str(data, it.key().toUtf8().constData()));
        }
    }
    return parts.join(QLatin1Char(' '));
}

QString network(const QJsonObject& data)
{
    QStringList parts{withPort(data)};
    if (const QString method = str(data, "method"); !method.isEmpty()) {
        parts.append(method + QLatin1Char(' ') + str(data, "path"));
    }
    const QString why = data.contains(QLatin1String("rule")) ? str(data, "rule") : str(data, "reason");
    if (!why.isEmpty()) {
        parts.append(QStringLiteral("— ") + why);
    }
    return parts.join(QLatin1Char(' '));
}

QString approval(const QString& type, const QJsonObject& data)
{
    if (type == QLatin1String("approval.decision")) {
        QString by;
        const QJsonObject who = data.value(QLatin1String("by")).toObject();
        by = who.contains(QLatin1String("user")) ? str(who, "user") : str(who, "policy");
        if (by.isEmpty()) {
            return translated(QT_TRANSLATE_NOOP("moat::gui::EventSummary", "%1 (request %2)"))
                .arg(str(data, "decision"), str(data, "rid"));
        }
        return translated(QT_TRANSLATE_NOOP("moat::gui::EventSummary", "%1 by %2 (request %3)"))
            .arg(str(data, "decision"), by, str(data, "rid"));
    }
    const QJsonObject http = data.value(QLatin1String("http")).toObject();
    if (!http.isEmpty()) {
        return translated(QT_TRANSLATE_NOOP("moat::gui::EventSummary", "%1 (request %2)"))
            .arg(str(http, "method") + QLatin1Char(' ') + str(http, "host") + str(http, "path"), str(data, "rid"));
    }
    return generic(data);
}

}  // namespace

QString printable(const QString& text, int maxChars)
{
    QString out = text.size() > maxChars ? text.left(maxChars - 1) + QChar(0x2026) : text;
    for (QChar& c : out) {
        const char16_t u = c.unicode();
        if (u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0) || u == 0x2028 || u == 0x2029 ||
            (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069)) {
            c = QChar(0xfffd);  // includes bidi overrides that reorder what is shown
        }
    }
    return out;
}

EventSummary summarizeEvent(const QJsonObject& event)
{
    EventSummary out;
    out.type = event.value(QLatin1String("type")).toString();
    const QJsonObject data = event.value(QLatin1String("data")).toObject();
    QString text;
    if (out.type == QLatin1String("exec")) {
        text = joined(data.value(QLatin1String("argv")).toArray());
    } else if (out.type.startsWith(QLatin1String("net."))) {
        out.host = str(data, "host");
        text = network(data);
    } else if (out.type == QLatin1String("dns.query")) {
        out.host = str(data, "name");
        text = str(data, "name") + QLatin1Char(' ') + str(data, "qtype") + QStringLiteral(" → ") + str(data, "answer");
    } else if (out.type.startsWith(QLatin1String("secret."))) {
        text = str(data, "name") + QLatin1Char(' ') + withPort(data);
    } else if (out.type.startsWith(QLatin1String("approval."))) {
        text = approval(out.type, data);
    } else if (out.type == QLatin1String("session.start")) {
        text = joined(data.value(QLatin1String("command")).toArray());
    } else if (out.type == QLatin1String("session.end")) {
        text = translated(QT_TRANSLATE_NOOP("moat::gui::EventSummary", "%1, exit status %2"))
                   .arg(str(data, "reason"), str(data, "exit_code"));
    } else {
        text = generic(data);
    }
    out.summary = printable(text.trimmed(), kSummaryChars);
    out.host = printable(out.host, 255);
    return out;
}

QString allowSuggestion(const QJsonObject& event)
{
    if (event.value(QLatin1String("type")).toString() != QLatin1String("net.deny")) {
        return {};
    }
    const QString suggestion = event.value(QLatin1String("data")).toObject().value(QLatin1String("suggestion")).toString();
    // Only a plain --allow-host with a host pattern: the sandbox chose the
    // host it asked for, so anything else in the text is not taken.
    static const QRegularExpression allowHost(QRegularExpression::anchoredPattern(
        QStringLiteral(R"(--allow-host ([A-Za-z0-9*][A-Za-z0-9.*-]{0,252}|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?)")));
    return allowHost.match(suggestion).hasMatch() ? suggestion : QString();
}

}  // namespace moat::gui
