// SPDX-License-Identifier: Apache-2.0
#include "eventlog.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>

EventLog EventLog::read(const QString& path)
{
    EventLog log;
    log.path_ = path;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        log.parseProblem_ = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return log;
    }
    log.readable_ = true;
    const QByteArray content = file.readAll();
    if (!content.isEmpty() && !content.endsWith('\n')) {
        log.parseProblem_ = QStringLiteral("%1 does not end with a newline").arg(path);
    }
    for (const QByteArray& line : content.split('\n')) {
        if (line.isEmpty()) {
            continue;
        }
        log.lines_.append(line);
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject()) {
            if (log.parseProblem_.isEmpty()) {
                log.parseProblem_ =
                    QStringLiteral("line %1 is not a JSON object: %2").arg(log.lines_.size()).arg(error.errorString());
            }
            log.events_.append(QJsonObject());
            continue;
        }
        log.events_.append(document.object());
    }
    return log;
}

QStringList EventLog::types() const
{
    QStringList types;
    for (const QJsonObject& event : events_) {
        types.append(event.value(QStringLiteral("type")).toString());
    }
    return types;
}

QJsonObject EventLog::first(const QString& type) const
{
    for (const QJsonObject& event : events_) {
        if (event.value(QStringLiteral("type")).toString() == type) {
            return event;
        }
    }
    return {};
}

QString EventLog::chainProblem() const
{
    if (!parseProblem_.isEmpty()) {
        return parseProblem_;
    }
    if (lines_.isEmpty()) {
        return QStringLiteral("%1 holds no events").arg(path_);
    }
    QByteArray expected(64, '0');
    for (int i = 0; i < lines_.size(); ++i) {
        const QByteArray prev = events_.at(i).value(QStringLiteral("prev")).toString().toLatin1();
        if (prev != expected) {
            return QStringLiteral("line %1: prev is '%2', expected '%3'")
                .arg(i + 1)
                .arg(QString::fromLatin1(prev), QString::fromLatin1(expected));
        }
        expected = QCryptographicHash::hash(lines_.at(i), QCryptographicHash::Sha256).toHex();
    }
    return {};
}
