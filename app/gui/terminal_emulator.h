// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace moat::gui {

// The user's terminal emulator, and how to make it run one command: each
// emulator takes the command its own way (xterm `-e PROGRAM ARG...`,
// gnome-terminal `-- PROGRAM ARG...`, xfce4-terminal `-x ...`, kitty and
// foot the command alone). Which one: $TERMINAL when it is set (a program
// name or path, with arguments of its own if the user wrote some, split as
// QProcess::splitCommand does: double quotes group words), else the
// first of x-terminal-emulator (the Debian system's choice),
// gnome-terminal, konsole, xfce4-terminal, mate-terminal, kitty, alacritty,
// foot, wezterm, terminator, urxvt, st and xterm found on PATH.
class TerminalEmulator
{
    Q_DECLARE_TR_FUNCTIONS(TerminalEmulator)

public:
    // Found from environment's TERMINAL and PATH. isValid() false when none
    // is there, with whyNot() saying what to install or set.
    static TerminalEmulator find(const QProcessEnvironment& environment);

    bool isValid() const { return !program_.isEmpty(); }
    QString whyNot() const { return whyNot_; }
    // The emulator's path as found on PATH.
    QString program() const { return program_; }
    // argv[0] is program(): the emulator running command in a new window.
    QStringList commandLine(const QStringList& command) const;
    // Starts commandLine(command) detached from this application (the window
    // stays when the application quits). false with *error otherwise.
    bool startDetached(const QStringList& command, QString* error) const;

private:
    QString program_;
    QStringList ownArguments_;
    QString whyNot_;
};

}  // namespace moat::gui
