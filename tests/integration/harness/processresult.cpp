// SPDX-License-Identifier: Apache-2.0
#include "processresult.h"

namespace {

QString clip(const QByteArray& bytes)
{
    constexpr int kLimit = 1500;
    QString text = QString::fromUtf8(bytes.left(kLimit));
    if (bytes.size() > kLimit) {
        text += QStringLiteral("...[%1 more bytes]").arg(bytes.size() - kLimit);
    }
    return text;
}

}  // namespace

QString ProcessResult::describe() const
{
    QString status;
    if (!started) {
        status = QStringLiteral("did not start");
    } else if (timedOut) {
        status = QStringLiteral("timed out and was killed");
    } else {
        status = QStringLiteral("exit %1").arg(exitCode);
    }
    return QStringLiteral("[%1] %2 after %3 ms\n--- stdout ---\n%4\n--- stderr ---\n%5")
        .arg(program, status)
        .arg(elapsedMs)
        .arg(clip(out), clip(err));
}
