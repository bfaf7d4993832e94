// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

#include <string>

namespace moat::gui {

// "Allow this next time": adds one `--allow-host HOST[:PORT]` to a user
// profile (profiles/NAME.toml in moat's config directory, core/policy/
// profile.h), keeping the file's comments and layout: the host goes into
// its `allow_host` array, or a new `allow_host = [...]` line is added. The
// new text is checked as `moat run --profile` would read it before it
// replaces the file (atomically, 0600); a file that does not parse is left
// as it is. Nothing is written without the user's confirmation, which the
// caller asks for showing plan()'s text.
class ProfileRuleWriter
{
public:
    // dir: the user's profile directory (userProfileDir()).
    explicit ProfileRuleWriter(QString dir) : dir_(std::move(dir)) {}

    struct Plan {
        QString path;     // the file written
        QString newText;  // all of it, as it will be
        QString added;    // the line or value added, for the dialog
        QString parameter;  // the profile's ${parameter}, when it takes a value
        bool creates = false;
        bool alreadyThere = false;  // every host is in the file already
        QString error;  // why it cannot be done; empty when it can
    };
    // What adding `allowHost` (HOST[:PORT], no flag) to profile `name` does.
    Plan plan(const QString& name, const QString& allowHost) const;
    // The same for several hosts at once (those already there are skipped).
    Plan plan(const QString& name, const QStringList& allowHosts) const;
    // Writes plan.newText; false with *error when it cannot.
    static bool apply(const Plan& plan, QString* error);

    static bool validProfileName(const QString& name);

private:
    // Adds one host to `text`; plan->added: what was added ("" when the
    // host is there already), or plan->error and false.
    static bool addHost(QString& text, const QString& allowHost, const std::string& source, Plan* plan);

    QString dir_;
};

}  // namespace moat::gui
