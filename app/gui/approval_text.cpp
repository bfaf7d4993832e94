// SPDX-License-Identifier: Apache-2.0
#include "approval_text.h"

#include "approval_queue.h"
#include "untrusted_text.h"

#include <QJsonArray>

namespace moat::gui {

namespace {

constexpr int kSummaryChars = 80;

}  // namespace

QString ApprovalText::what(const ApprovalEntry& entry, int maxChars)
{
    if (entry.kind == QLatin1String("http")) {
        const QJsonObject& http = entry.http;
        QString target = http.value(QLatin1String("host")).toString();
        const int port = http.value(QLatin1String("port")).toInt();
        if (port > 0) {
            target += QLatin1Char(':') + QString::number(port);
        }
        QStringList parts = {http.value(QLatin1String("method")).toString(), target,
                             http.value(QLatin1String("path")).toString()};
        QStringList refs;
        for (const QJsonValue& ref : http.value(QLatin1String("refs")).toArray()) {
            refs.append(ref.toString());
        }
        QString shown = shownUntrustedList(parts, maxChars);
        if (!refs.isEmpty()) {
            shown += QLatin1Char(' ') + tr("(git push to %1)").arg(shownUntrustedList(refs, maxChars));
        }
        return shown;
    }
    return shownUntrustedList(entry.flags, maxChars);
}

QString ApprovalText::session(const ApprovalEntry& entry)
{
    // Session ids and names come from moatd; a name was chosen by whoever
    // started the session, which may be an agent asking for a successor.
    const QString id = shownUntrusted(entry.session, 40);
    if (entry.sessionName.isEmpty()) {
        return id;
    }
    return tr("%1 (%2)").arg(shownUntrusted(entry.sessionName, 60), id.left(12));
}

QString ApprovalText::summary(const ApprovalEntry& entry)
{
    const QString what = ApprovalText::what(entry, kSummaryChars);
    return entry.kind == QLatin1String("http") ? tr("%1 asks to send %2").arg(session(entry), what)
                                               : tr("%1 asks for %2").arg(session(entry), what);
}

}  // namespace moat::gui
