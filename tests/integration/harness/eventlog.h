// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArrayList>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// A session's events as moat wrote them: one JSON object a line, each with
// "prev" = SHA-256 (hex) of the previous line's bytes, the first with 64 zeros.
class EventLog
{
public:
    static EventLog read(const QString& path);

    bool isReadable() const { return readable_; }
    QString path() const { return path_; }
    const QList<QJsonObject>& events() const { return events_; }
    QStringList types() const;
    // The first event of that type, or an empty object.
    QJsonObject first(const QString& type) const;
    // Empty when every line parses and the chain holds; else what broke first.
    QString chainProblem() const;

private:
    QString path_;
    bool readable_ = false;
    QByteArrayList lines_;
    QList<QJsonObject> events_;
    QString parseProblem_;
};
