// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace moat::gui {

// A starting point for the New sandbox dialog: the command an agent is
// started with and the hosts it needs to reach its model. The user sees and
// may change both; a preset grants nothing the command line does not show.
struct AgentPreset {
    QString id;      // "shell", "claude", "codex"
    QString label;   // shown in the dialog
    QStringList command;
    QStringList allowHosts;

    static QList<AgentPreset> all();
};

}  // namespace moat::gui
