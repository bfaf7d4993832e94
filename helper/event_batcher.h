// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>

namespace moat::helper {

// EventsAppended is rate-limited: at most one signal per session every
// kIntervalMs, carrying the newest seq and how many events came since the
// last signal. A watcher (moat logs --follow, the GUI) then reads the lines
// with ReadTimeline; the bus never carries a flood of events.
class EventBatcher : public QObject {
    Q_OBJECT

public:
    static constexpr int kIntervalMs = 250;

    using QObject::QObject;

    void add(const QString& session, quint64 lastSeq, uint count);
    // The session ended: what is held is emitted now.
    void flush(const QString& session);

signals:
    void eventsAppended(const QString& session, quint64 lastSeq, uint count);

private:
    struct Pending {
        quint64 lastSeq = 0;
        uint count = 0;
        std::unique_ptr<QTimer> quiet;  // running: a signal went out less than kIntervalMs ago
    };
    void emitHeld(const QString& session);

    QHash<QString, std::shared_ptr<Pending>> sessions_;
};

}  // namespace moat::helper
