// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include "base/error.h"

namespace moat::helper {

// An HTTP request that the user's own `ask` rule holds, as the supervisor
// describes it in {"t":"request","kind":"http","http":{...}}. What it names
// (method, host, path, refs) the agent chose: each field is checked and
// bounded here before a person is shown it, and shown by the clients as
// untrusted text. The rule is the user's own, as written.
struct HttpApproval {
    QJsonObject http;    // method, host, port, path, rule[, refs]: checked and bounded
    QDateTime expires;   // the supervisor's deadline, at most kMaxSeconds from now
};

// The ListApprovals entry fields of `message` (kind "http"), or why not.
// `now` is when moatd received it; `maxSeconds` bounds the wait.
Result<HttpApproval> httpApprovalFrom(const QJsonObject& message, const QDateTime& now, int maxSeconds);

}  // namespace moat::helper
