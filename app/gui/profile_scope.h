// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace moat::gui {

struct ApprovalEntry;

// "Always for this profile" on an approval: the hosts a `moat request
// --allow-host` asks for go into the session's own user profile
// (profiles/NAME.toml, core/policy/profile.h), so that its next runs with
// --profile NAME have them. Whether an entry allows it, and why not.
class ProfileScope
{
    Q_DECLARE_TR_FUNCTIONS(ProfileScope)

public:
    // userDir: the user's profiles (userProfileDir()); builtinDir: moat's
    // shipped ones (builtinProfileDir()).
    ProfileScope(QString userDir, QString builtinDir)
        : userDir_(std::move(userDir)), builtinDir_(std::move(builtinDir))
    {
    }

    // Why "always for this profile" cannot be offered for `entry`, for a
    // tooltip; empty when it can.
    QString problem(const ApprovalEntry& entry) const;
    // The hosts the entry asks for (its --allow-host values).
    static QStringList hosts(const ApprovalEntry& entry);

    const QString& userDir() const { return userDir_; }

private:
    QString userDir_;
    QString builtinDir_;
};

}  // namespace moat::gui
