// SPDX-License-Identifier: Apache-2.0
#include "netevents.h"

#include <QJsonDocument>

QList<QJsonObject> NetEvents::data(const QString& type) const
{
    QList<QJsonObject> found;
    for (const QJsonObject& event : log_.events()) {
        if (event.value(QStringLiteral("type")).toString() == type) {
            found.append(event.value(QStringLiteral("data")).toObject());
        }
    }
    return found;
}

int NetEvents::port(const QJsonObject& data)
{
    const QJsonValue value = data.value(QStringLiteral("port"));
    return value.isString() ? value.toString().toInt() : value.toInt();
}

QList<QJsonObject> NetEvents::to(const QString& type, int port, const QString& protocol) const
{
    QList<QJsonObject> found;
    for (const QJsonObject& event : data(type)) {
        if (NetEvents::port(event) == port &&
            (protocol.isEmpty() || event.value(QStringLiteral("protocol")).toString() == protocol)) {
            found.append(event);
        }
    }
    return found;
}

QString NetEvents::describe() const
{
    QStringList lines{QStringLiteral("events in %1:").arg(log_.path())};
    for (const QJsonObject& event : log_.events()) {
        const QString type = event.value(QStringLiteral("type")).toString();
        if (type.startsWith(QLatin1String("net.")) || type == QLatin1String("dns.query")) {
            lines.append(
                type + QLatin1Char(' ') +
                QString::fromUtf8(
                    QJsonDocument(event.value(QStringLiteral("data")).toObject()).toJson(QJsonDocument::Compact)));
        }
    }
    if (lines.size() == 1) {
        lines.append(
            QStringLiteral("(no net.* or dns.query events; types: %1)").arg(log_.types().join(QLatin1Char(','))));
    }
    return lines.join(QLatin1Char('\n'));
}
