// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace moat::gui {

// Where a toggle's value came from, shown beside it in the New sandbox
// dialog (as Flatseal shows an override): moat's default, the chosen
// profile, or the user. Only the user's values are written into the command
// line; a profile's come from `--profile`, a default from nothing.
enum class ValueOrigin { Default, Profile, User };

// What the New sandbox dialog's toggles say. It has one meaning only: the
// `moat run` command line moatRunArguments() makes of it, which is what the
// dialog shows, what the user may copy, and what the application runs.
struct RunChoices {
    QString image = QStringLiteral("host");
    QString workspace;  // empty: moat's default, the current directory
    QString profile;    // NAME or NAME=VALUE; empty: none
    QStringList allowHosts;
    QStringList secrets;  // NAME or NAME=ENVVAR
    bool sudo = false;
    bool docker = false;
    bool yolo = false;
    // proxy, none or open. Written only when it is the user's choice.
    QString net = QStringLiteral("proxy");
    ValueOrigin netOrigin = ValueOrigin::Default;
    QString ttl = QStringLiteral("8h");
    ValueOrigin ttlOrigin = ValueOrigin::Default;
    QString name;
    QStringList command;
};

// The arguments after `moat`: "run", the flags in a fixed order, "--", the
// command. Empty strings and empty lists write nothing.
QStringList moatRunArguments(const RunChoices& choices);

// argv as one line a POSIX shell reads back to the same argv: words with
// anything but [A-Za-z0-9_@%+=:,./-] are single-quoted.
QString shellCommandLine(const QStringList& argv);

// The words of a command line typed as a POSIX shell reads it: 'single'
// and "double" quotes, backslash escapes; no expansion of any kind (no $,
// globs or ~: the words go to moat as they are). nullopt when a quote is
// not closed or the line ends in a lone backslash.
std::optional<QStringList> splitShellWords(const QString& line);

}  // namespace moat::gui
