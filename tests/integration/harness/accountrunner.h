// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "backgroundprocess.h"
#include "hostaccount.h"
#include "processresult.h"
#include "runoptions.h"

#include <QMap>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <vector>

class MoatInstall;

// Runs commands as one host account, the same way outside the sandbox (plain,
// `host`) and inside it (`moatRun`), so an attack can first be shown to work
// and then to fail. Every command gets a clean environment: HOME, PATH,
// LANG=C.UTF-8 and a private MOAT_STATE_DIR and MOAT_CONFIG_DIR owned by the
// account. There is no D-Bus session bus, so moat keeps the records' keys in
// the config dir's key file, which prepare() makes (moat would make it on
// first use, with a notice on stderr that would land in whichever test runs
// first). Directories made here belong to the account and are removed with
// the runner.
class AccountRunner
{
public:
    using Options = RunOptions;

    AccountRunner(const HostAccount& account, const MoatInstall& install);
    ~AccountRunner();
    AccountRunner(const AccountRunner&) = delete;
    AccountRunner& operator=(const AccountRunner&) = delete;

    bool prepare(QString* error);

    const HostAccount& account() const { return account_; }
    const MoatInstall& install() const { return install_; }
    QString stateDir() const;
    QString configDir() const;
    // The default workspace: the working directory of every command.
    QString workspace() const { return workspace_; }
    // Replaces the default workspace with a new, empty one.
    bool renewWorkspace(QString* error = nullptr);
    // A new empty directory /tmp/moat-it-LABEL-XXXXXX owned by the account
    // (mode 0755), outside the workspace. Empty string on failure.
    QString newDirectory(const QString& label, QString* error = nullptr);

    QProcessEnvironment environment(const QMap<QString, QString>& extra = {}) const;

    // Outside: `argv` as the account, no sandbox.
    ProcessResult host(const QStringList& argv, const Options& options = {}) const;
    ProcessResult hostShell(const QString& script, const Options& options = {}) const;
    // Inside: `moat run RUNOPTIONS -- COMMAND`.
    ProcessResult moatRun(const QStringList& runOptions, const QStringList& command,
                          const Options& options = {}) const;
    ProcessResult moatShell(const QStringList& runOptions, const QString& script,
                            const Options& options = {}) const;
    // `moat ARGS` exactly as given.
    ProcessResult moat(const QStringList& args, const Options& options = {}) const;
    // A long-running helper as the account (killed when the pointer dies).
    std::unique_ptr<BackgroundProcess> startHost(const QStringList& argv) const;
    // Runs `argv` as the account under a fresh pty (tests/tools/ptyrun.py);
    // ptyOptions go to ptyrun (--rows, --send, ...).
    ProcessResult underPty(const QStringList& ptyOptions, const QStringList& argv,
                           const Options& options = {}) const;
    QStringList moatRunCommand(const QStringList& runOptions, const QStringList& command) const;

    // Session ids in the private state dir, and where each one's records are.
    QStringList sessionIds() const;
    QString sessionDir(const QString& id) const;

private:
    HostAccount account_;
    const MoatInstall& install_;
    std::unique_ptr<QTemporaryDir> state_;
    std::unique_ptr<QTemporaryDir> config_;
    QString workspace_;
    std::vector<std::unique_ptr<QTemporaryDir>> directories_;
};
