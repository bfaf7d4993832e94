// SPDX-License-Identifier: Apache-2.0
#include "event_batcher.h"

namespace moat::helper {

void EventBatcher::add(const QString& session, quint64 lastSeq, uint count)
{
    auto& pending = sessions_[session];
    if (!pending) {
        pending = std::make_shared<Pending>();
        pending->quiet = std::make_unique<QTimer>();
        pending->quiet->setSingleShot(true);
        pending->quiet->setInterval(kIntervalMs);
        connect(pending->quiet.get(), &QTimer::timeout, this, [this, session] { emitHeld(session); });
    }
    pending->lastSeq = std::max(pending->lastSeq, lastSeq);
    pending->count += count;
    if (!pending->quiet->isActive()) {
        emitHeld(session);
    }
}

void EventBatcher::emitHeld(const QString& session)
{
    auto found = sessions_.find(session);
    if (found == sessions_.end() || (*found)->count == 0) {
        return;
    }
    const auto pending = *found;
    emit eventsAppended(session, pending->lastSeq, pending->count);
    pending->count = 0;
    pending->quiet->start();
}

void EventBatcher::flush(const QString& session)
{
    emitHeld(session);
    sessions_.remove(session);
}

}  // namespace moat::helper
