// SPDX-License-Identifier: Apache-2.0
#pragma once

// An in-memory events.jsonl for TimelineModel's Reader, answering pages as
// moatd's ReadTimeline does (lines with seq > after, at most max), for the
// unit tests and the bench. The model under test is the real one; only
// the bus is left out.

#include "timeline_model.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QTimer>

#include <vector>

namespace moat::gui::testing {

class TimelineFeed
{
public:
    // One line in the `moat logs --json` shape; seq is the next one.
    void add(const char* type, const QByteArray& dataJson)
    {
        const quint64 seq = lines_.size() + 1;
        const qint64 ms = 1796117697000LL + static_cast<qint64>(seq);  // 2026-12-01
        const QByteArray ts = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs).toUtf8();
        lines_.push_back("{\"data\":" + dataJson + ",\"seq\":" + QByteArray::number(seq) +
                         ",\"session\":\"0123456789abcdef\",\"ts\":\"" + ts + "\",\"type\":\"" + type + "\"}\n");
    }
    // A typical mix: exec, net.allow, net.deny, dns.query, secret.use, in turn.
    void addMix(quint64 count)
    {
        for (quint64 i = 0; i < count; ++i) {
            const QByteArray n = QByteArray::number(i);
            switch ((lines_.size()) % 5) {
            case 0:
                add("exec", "{\"argv\":[\"make\",\"test\",\"-j" + n + "\"],\"pid\":" + n + "}");
                break;
            case 1:
                add("net.allow", "{\"host\":\"api.github.com\",\"port\":443,\"protocol\":\"connect\",\"rule\":\"--allow-host api.github.com\"}");
                break;
            case 2:
                add("net.deny", "{\"host\":\"example.com\",\"port\":443,\"protocol\":\"connect\",\"reason\":\"example.com:443 is not allowed\",\"suggestion\":\"--allow-host example.com\"}");
                break;
            case 3:
                add("dns.query", "{\"answer\":\"NXDOMAIN\",\"name\":\"example.com\",\"qtype\":\"A\",\"transport\":\"udp\"}");
                break;
            default:
                add("secret.use", "{\"name\":\"github\",\"host\":\"api.github.com\",\"port\":443}");
                break;
            }
        }
    }
    quint64 lastSeq() const { return lines_.size(); }

    // asynchronous: answer from the event loop (as the bus does), else at once.
    TimelineModel::Reader reader(bool asynchronous = false)
    {
        return [this, asynchronous](quint64 after, uint max, MoatdConnection::Reply reply) {
            ++reads;
            MoatdAnswer answer;
            answer.ok = !failNext;
            failNext = false;
            if (!answer.ok) {
                answer.errorName = QStringLiteral("org.moat.Error.Failed");
                answer.errorMessage = QStringLiteral("moatd is gone");
            } else {
                QByteArray text;
                for (quint64 seq = after + 1; seq <= lines_.size() && seq <= after + max; ++seq) {
                    text += lines_[seq - 1];
                }
                answer.value = QString::fromUtf8(text);
            }
            if (asynchronous) {
                QTimer::singleShot(0, [reply = std::move(reply), answer] { reply(answer); });
            } else {
                reply(answer);
            }
        };
    }

    int reads = 0;
    bool failNext = false;

private:
    std::vector<QByteArray> lines_;
};

}  // namespace moat::gui::testing
