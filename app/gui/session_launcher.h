// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "run_choices.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QPointer>

namespace moat::gui {

class PtyProcess;
class TerminalRelay;

// Starts sessions the way the New sandbox dialog shows them: it runs the
// very `moat run ...` command of the preview, on a pseudo-terminal this
// application holds, so that what the user read is what runs. moat starts
// the session through moatd (the same bus) and relays the sandbox's
// terminal; the application shows that terminal's output and types into it.
// When the application quits, the sessions it started are stopped, as a
// terminal's are when it closes.
class SessionLauncher : public QObject
{
    Q_OBJECT
public:
    explicit SessionLauncher(QObject* parent = nullptr);
    ~SessionLauncher() override;

    // The moat program: beside this application when it is there (a build
    // tree, an install), else `moat` from PATH.
    static QString defaultMoatProgram();
    QString moatProgram() const { return moatProgram_; }
    // Another moat (a private install, in tests).
    void setMoatProgram(const QString& program) { moatProgram_ = program; }

    // Runs `moat` + moatRunArguments(choices). false with *error set when
    // it could not be started; the session's own failures (a refused flag)
    // are moat's output and exit status (finished()).
    bool start(const RunChoices& choices, QString* error);

    // By session name (the dialog always gives one).
    PtyProcess* terminalFor(const QString& name) const;
    // What the terminal showed so far (bounded), for a view opened later.
    QByteArray outputSoFar(const QString& name) const;
    // The relay that lends the running session's terminal to
    // `moat-manager --attach` ("Open in terminal"), listening; made on the
    // first call and reused. Its socket goes when the session ends, the
    // relay when this object dies or the name is started again. nullptr
    // with *error when the session has no running terminal here or the
    // socket cannot be made.
    TerminalRelay* relayFor(const QString& name, QString* error);

signals:
    void output(const QString& name, const QByteArray& bytes);
    void finished(const QString& name, int exitStatus);

private:
    struct Run {
        QPointer<PtyProcess> terminal;
        QByteArray output;
        QPointer<TerminalRelay> relay;
    };
    QHash<QString, Run> runs_;
    QString moatProgram_;
};

}  // namespace moat::gui
