// SPDX-License-Identifier: Apache-2.0
#include "session_launcher.h"

#include "pty_process.h"
#include "terminal_relay.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>

namespace moat::gui {

namespace {

// Enough for the start of a session and its last screens; older output
// falls off the front.
constexpr qsizetype kKeptOutput = 1 << 20;

}  // namespace

SessionLauncher::SessionLauncher(QObject* parent) : QObject(parent), moatProgram_(defaultMoatProgram()) {}

SessionLauncher::~SessionLauncher()
{
    for (const Run& run : std::as_const(runs_)) {
        delete run.relay.data();  // its socket and directory go with it
        if (run.terminal) {
            run.terminal->disconnect(this);
            delete run.terminal.data();
        }
    }
}

QString SessionLauncher::defaultMoatProgram()
{
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/moat");
    if (QFileInfo(beside).isExecutable()) {
        return beside;
    }
    const QString found = QStandardPaths::findExecutable(QStringLiteral("moat"));
    return found.isEmpty() ? QStringLiteral("moat") : found;
}

bool SessionLauncher::start(const RunChoices& choices, QString* error)
{
    if (choices.name.isEmpty()) {
        *error = tr("Give the session a name: the application finds its terminal by it.");
        return false;
    }
    if (const PtyProcess* running = terminalFor(choices.name); running != nullptr && running->isRunning()) {
        *error = tr("A session named %1 is already running from here. Choose another name.").arg(choices.name);
        return false;
    }
    auto* terminal = new PtyProcess(this);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TERM"), QStringLiteral("xterm-256color"));
    const QString name = choices.name;
    connect(terminal, &PtyProcess::output, this, [this, name](const QByteArray& bytes) {
        QByteArray& kept = runs_[name].output;
        kept += bytes;
        if (kept.size() > kKeptOutput) {
            kept.remove(0, kept.size() - kKeptOutput);
        }
        emit output(name, bytes);
    });
    connect(terminal, &PtyProcess::finished, this, [this, name](int status) { emit finished(name, status); });
    const QString directory = choices.workspace.isEmpty() ? QDir::homePath() : choices.workspace;
    QString problem;
    if (!terminal->start(moatProgram_, moatRunArguments(choices), environment, &problem, directory)) {
        delete terminal;
        *error = problem;
        return false;
    }
    delete runs_.value(name).relay.data();
    delete runs_.value(name).terminal.data();
    runs_.insert(name, Run{terminal, {}, {}});
    return true;
}

PtyProcess* SessionLauncher::terminalFor(const QString& name) const
{
    return runs_.value(name).terminal.data();
}

QByteArray SessionLauncher::outputSoFar(const QString& name) const
{
    return runs_.value(name).output;
}

TerminalRelay* SessionLauncher::relayFor(const QString& name, QString* error)
{
    const auto run = runs_.find(name);
    if (run == runs_.end() || run->terminal == nullptr || !run->terminal->isRunning()) {
        *error = tr("%1 has no running terminal in this window.").arg(name);
        return nullptr;
    }
    if (run->relay != nullptr && run->relay->isListening()) {
        return run->relay.data();
    }
    delete run->relay.data();
    auto* relay = new TerminalRelay(run->terminal.data(), [this, name] { return outputSoFar(name); }, this);
    if (!relay->listen(error)) {
        delete relay;
        return nullptr;
    }
    run->relay = relay;
    return relay;
}

}  // namespace moat::gui
