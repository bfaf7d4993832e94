// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>
#include <QString>

namespace moat::gui {

struct ApprovalEntry;

// What an approval entry asks for, in words for a person, with everything
// the agent wrote passed through shownUntrusted(): plain text only.
class ApprovalText
{
    Q_DECLARE_TR_FUNCTIONS(ApprovalText)

public:
    // "--allow-host example.org:443 --sudo" or "POST example.org:443 /v1/upload".
    static QString what(const ApprovalEntry& entry, int maxChars = 400);
    // The session, by name when known: "my-agent (3f2a…)".
    static QString session(const ApprovalEntry& entry);
    // One short line for the queue list and a desktop notification.
    static QString summary(const ApprovalEntry& entry);
};

}  // namespace moat::gui
