// SPDX-License-Identifier: Apache-2.0
#include "terminal_emulator.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

namespace moat::gui {

namespace {

// What goes between the emulator's own arguments and the command.
struct Known {
    const char* name;
    QStringList before;
};

const QList<Known>& knownEmulators()
{
    // The order is the search order without $TERMINAL: the system's choice,
    // then the desktops' own, then the small ones, xterm (always works,
    // plainest) last.
    static const QList<Known> known = {
        {"x-terminal-emulator", {QStringLiteral("-e")}},
        {"gnome-terminal", {QStringLiteral("--")}},
        {"konsole", {QStringLiteral("-e")}},
        {"xfce4-terminal", {QStringLiteral("-x")}},
        {"mate-terminal", {QStringLiteral("-x")}},
        {"kitty", {}},
        {"alacritty", {QStringLiteral("-e")}},
        {"foot", {}},
        {"wezterm", {QStringLiteral("start"), QStringLiteral("--")}},
        {"terminator", {QStringLiteral("-x")}},
        {"urxvt", {QStringLiteral("-e")}},
        {"st", {QStringLiteral("-e")}},
        {"xterm", {QStringLiteral("-e")}},
    };
    return known;
}

QStringList pathOf(const QProcessEnvironment& environment)
{
    return environment.value(QStringLiteral("PATH")).split(QLatin1Char(':'), Qt::SkipEmptyParts);
}

QString findOn(const QStringList& path, const QString& program)
{
    if (program.contains(QLatin1Char('/'))) {
        const QFileInfo file(program);
        return file.isFile() && file.isExecutable() ? file.absoluteFilePath() : QString();
    }
    return path.isEmpty() ? QString() : QStandardPaths::findExecutable(program, path);
}

}  // namespace

TerminalEmulator TerminalEmulator::find(const QProcessEnvironment& environment)
{
    TerminalEmulator found;
    const QStringList path = pathOf(environment);
    const QString chosen = environment.value(QStringLiteral("TERMINAL")).trimmed();
    if (!chosen.isEmpty()) {
        QStringList words = QProcess::splitCommand(chosen);
        const QString program = words.isEmpty() ? QString() : findOn(path, words.takeFirst());
        if (program.isEmpty()) {
            found.whyNot_ = tr("$TERMINAL is \"%1\", which is not a program found on "
                                                        "PATH. Set TERMINAL to your terminal emulator (for example "
                                                        "xterm or gnome-terminal).")
                                .arg(chosen);
            return found;
        }
        found.program_ = program;
        found.ownArguments_ = words;
        return found;
    }
    for (const Known& known : knownEmulators()) {
        const QString program = findOn(path, QString::fromLatin1(known.name));
        if (!program.isEmpty()) {
            found.program_ = program;
            return found;
        }
    }
    found.whyNot_ = tr("No terminal emulator was found on PATH. Install one (for example "
                                                "xterm, gnome-terminal or konsole), or set TERMINAL to the one you "
                                                "use, and try again.");
    return found;
}

QStringList TerminalEmulator::commandLine(const QStringList& command) const
{
    if (!isValid()) {
        return {};
    }
    // The way to pass a command is the emulator's, found by its file name;
    // x-terminal-emulator is a link to another one, which takes -e too (a
    // Debian policy). An emulator moat does not know gets -e, the most common.
    const QString name = QFileInfo(program_).fileName();
    QStringList before{QStringLiteral("-e")};
    for (const Known& known : knownEmulators()) {
        if (name == QLatin1String(known.name)) {
            before = known.before;
            break;
        }
    }
    return QStringList{program_} + ownArguments_ + before + command;
}

bool TerminalEmulator::startDetached(const QStringList& command, QString* error) const
{
    if (!isValid()) {
        *error = whyNot_;
        return false;
    }
    QStringList argv = commandLine(command);
    const QString program = argv.takeFirst();
    if (!QProcess::startDetached(program, argv, QDir::homePath())) {
        *error = tr("Cannot start %1.").arg(program);
        return false;
    }
    return true;
}

}  // namespace moat::gui
