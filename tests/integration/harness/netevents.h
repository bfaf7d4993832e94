// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <utility>

#include "eventlog.h"

// The egress proxy's records in a session's events: net.allow with data
// {protocol, host, port, address, rule} and net.deny with data {protocol,
// host, port, reason, suggestion}; and the DNS stub's dns.query.
class NetEvents {
public:
    explicit NetEvents(EventLog log) : log_(std::move(log)) {}

    // The data of every event of that type, in order.
    QList<QJsonObject> data(const QString& type) const;
    // Those for this port (a number or a string in the record), and, when not
    // empty, this protocol.
    QList<QJsonObject> to(const QString& type, int port, const QString& protocol = QString()) const;
    // Every net.* and dns.query event, one a line, for failure messages.
    QString describe() const;

    static int port(const QJsonObject& data);

private:
    EventLog log_;
};
