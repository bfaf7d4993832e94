// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QStringList>

class QSocketNotifier;

namespace moat::gui {

// A program run on a new pseudo-terminal that this object holds the master
// side of: the session's output as the agent's terminal shows it (colours
// included), and a way to type into it. The program is the session leader
// of its own session with the pty as its controlling terminal, as in a
// terminal emulator; `moat run` relays that terminal into the sandbox.
class PtyProcess : public QObject
{
    Q_OBJECT
public:
    explicit PtyProcess(QObject* parent = nullptr);
    ~PtyProcess() override;

    // Starts program with arguments in directory on a new pty of rows x
    // columns. false and *error set when the pty or the program cannot start.
    bool start(const QString& program, const QStringList& arguments, const QProcessEnvironment& environment,
               QString* error, const QString& directory = {}, int rows = 40, int columns = 120);
    void write(const QByteArray& bytes);
    void resize(int rows, int columns);
    // SIGTERM to the program (moat forwards it to the sandbox).
    void terminate();
    bool isRunning() const;
    qint64 processId() const;

signals:
    void output(const QByteArray& bytes);
    // The program's exit status (128+N when killed by signal N).
    void finished(int exitStatus);

private:
    void readMaster();

    QProcess process_;
    int master_ = -1;
    QSocketNotifier* notifier_ = nullptr;
};

}  // namespace moat::gui
