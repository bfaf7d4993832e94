// SPDX-License-Identifier: Apache-2.0
#include "agent_preset.h"

#include <QCoreApplication>

namespace moat::gui {

QList<AgentPreset> AgentPreset::all()
{
    // The shell preset reaches no host: a person can add what the task needs.
    return {
        {QStringLiteral("shell"), QCoreApplication::translate("AgentPreset", "A shell"),
         {QStringLiteral("/bin/bash")}, {}},
        {QStringLiteral("claude"), QCoreApplication::translate("AgentPreset", "Claude Code"),
         {QStringLiteral("claude")}, {QStringLiteral("api.anthropic.com")}},
        {QStringLiteral("codex"), QCoreApplication::translate("AgentPreset", "Codex"),
         {QStringLiteral("codex")}, {QStringLiteral("api.openai.com")}},
    };
}

}  // namespace moat::gui
