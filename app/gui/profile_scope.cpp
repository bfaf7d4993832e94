// SPDX-License-Identifier: Apache-2.0
#include "profile_scope.h"

#include "approval_queue.h"
#include "profile_rule_writer.h"

#include <QDir>
#include <QFileInfo>

namespace moat::gui {

QStringList ProfileScope::hosts(const ApprovalEntry& entry)
{
    QStringList hosts;
    for (qsizetype i = 0; i + 1 < entry.flags.size(); ++i) {
        if (entry.flags.at(i) == QLatin1String("--allow-host")) {
            hosts.append(entry.flags.at(++i));
        }
    }
    return hosts;
}

QString ProfileScope::problem(const ApprovalEntry& entry) const
{
    if (entry.kind == QLatin1String("http")) {
        // In a profile's rules the first match wins, and --rule comes
        // before the profile's: an allow rule appended to the profile would
        // never be reached past the ask rule that held this request.
        return tr("An ask rule holds this request; moat-manager does not write HTTP rules into a profile (the first "
                  "matching rule wins, so an allow rule after your ask rule would never apply). Edit the rules "
                  "yourself to allow it for good.");
    }
    const QStringList asked = hosts(entry);
    if (asked.isEmpty() || asked.size() * 2 != entry.flags.size()) {
        return tr("Only --allow-host can be approved always: a profile cannot grant --sudo or --docker, and "
                  "moat-manager does not make --net open permanent. Approve it once, or not at all.");
    }
    const QString name = entry.profile;
    if (name.isEmpty()) {
        return tr("moatd did not say which profile this session runs with.");
    }
    if (name == QLatin1String("default")) {
        // What `moat run` records without --profile: no file is read.
        return tr("This session runs without a profile (moat records it as \"default\"): no profile file is read "
                  "by its next runs. Start it with --profile NAME to use this.");
    }
    if (!ProfileRuleWriter::validProfileName(name)) {
        return tr("The session's profile \"%1\" is not a name moat-manager writes to.").arg(name);
    }
    const QString file = QDir(userDir_).filePath(name + QStringLiteral(".toml"));
    if (QFileInfo::exists(file)) {
        return {};
    }
    if (QFileInfo::exists(QDir(builtinDir_).filePath(name + QStringLiteral(".toml")))) {
        // A user file of that name replaces the shipped one as a whole
        // (Profile::load): writing just the host would drop its rules.
        return tr("\"%1\" is a profile moat ships and you have no copy of it in %2; a file of that name there would "
                  "replace the shipped one entirely. Copy it there first to add hosts to it.")
            .arg(name, userDir_);
    }
    return tr("The session's profile file %1 no longer exists.").arg(file);
}

}  // namespace moat::gui
