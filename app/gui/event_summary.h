// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QString>

namespace moat::gui {

// What the timeline shows of one event (a line of events.jsonl, the `moat
// logs --json` shape): its type, one line of summary, and the host a
// network event names. Plain text; control characters the sandbox may have
// put in a command line or a host name are replaced, never passed on.
struct EventSummary {
    QString type;
    QString summary;
    QString host;  // net.*: data.host; dns.query: data.name; else empty
};

EventSummary summarizeEvent(const QJsonObject& event);

// `text` with every control character replaced by U+FFFD and cut to
// `maxChars` (an ellipsis marks the cut).
QString printable(const QString& text, int maxChars);

// The narrow `moat run` flag that would have allowed a denied network event
// (data.suggestion, e.g. "--allow-host example.com:8443"), or "" when the
// event offers none or the suggestion is not such a flag.
QString allowSuggestion(const QJsonObject& event);

}  // namespace moat::gui
