// SPDX-License-Identifier: Apache-2.0
#include "accountrunner.h"

#include "moatinstall.h"
#include "subprocess.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>

AccountRunner::AccountRunner(const HostAccount& account, const MoatInstall& install)
    : account_(account), install_(install)
{
}

AccountRunner::~AccountRunner() = default;

bool AccountRunner::prepare(QString* error)
{
    state_ = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/moat-it-state-XXXXXX"));
    if (!state_->isValid()) {
        *error = QStringLiteral("cannot create a state directory: %1").arg(state_->errorString());
        return false;
    }
    if (!account_.giveOwnership(state_->path(), error)) {
        return false;
    }
    config_ = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/moat-it-config-XXXXXX"));  // mode 0700
    if (!config_->isValid()) {
        *error = QStringLiteral("cannot create a config directory: %1").arg(config_->errorString());
        return false;
    }
    // The record key file as moat makes it (docs/records.md): random keys, 0600.
    QByteArray keys(64, '\0');
    QRandomGenerator::system()->generate(keys.begin(), keys.end());
    const QString keyFile = config_->filePath(QStringLiteral("record-keys"));
    QFile file(keyFile);
    if (!file.open(QIODevice::WriteOnly) ||
        !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) ||
        file.write("moat-record-keys-v1 " + keys.left(32).toHex() + ' ' + keys.mid(32).toHex() + '\n') < 0) {
        *error = QStringLiteral("cannot write %1: %2").arg(keyFile, file.errorString());
        return false;
    }
    file.close();
    if (!account_.giveOwnership(config_->path(), error) || !account_.giveOwnership(keyFile, error)) {
        return false;
    }
    return renewWorkspace(error);
}

QString AccountRunner::stateDir() const
{
    return state_ ? state_->path() : QString();
}

QString AccountRunner::configDir() const
{
    return config_ ? config_->path() : QString();
}

bool AccountRunner::renewWorkspace(QString* error)
{
    const QString dir = newDirectory(QStringLiteral("ws"), error);
    if (dir.isEmpty()) {
        return false;
    }
    workspace_ = dir;
    return true;
}

QString AccountRunner::newDirectory(const QString& label, QString* error)
{
    auto dir = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/moat-it-%1-XXXXXX").arg(label));
    if (!dir->isValid()) {
        if (error) {
            *error = QStringLiteral("cannot create a temporary directory: %1").arg(dir->errorString());
        }
        return {};
    }
    const auto mode = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup |
                      QFile::ReadOther | QFile::ExeOther;
    if (!QFile::setPermissions(dir->path(), mode) || !account_.giveOwnership(dir->path(), error)) {
        return {};
    }
    const QString path = dir->path();
    directories_.push_back(std::move(dir));
    return path;
}

QProcessEnvironment AccountRunner::environment(const QMap<QString, QString>& extra) const
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("HOME"), account_.home());
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("MOAT_STATE_DIR"), stateDir());
    env.insert(QStringLiteral("MOAT_CONFIG_DIR"), configDir());
    for (auto it = extra.cbegin(); it != extra.cend(); ++it) {
        env.insert(it.key(), it.value());
    }
    return env;
}

ProcessResult AccountRunner::host(const QStringList& argv, const Options& options) const
{
    Subprocess::Request request;
    request.argv = account_.commandLine(argv);
    request.environment = environment(options.environment);
    request.workingDirectory = options.workingDirectory.isEmpty() ? workspace_ : options.workingDirectory;
    request.input = options.input;
    request.feedInput = options.feedInput;
    request.timeoutMs = options.timeoutMs;
    ProcessResult result = Subprocess::run(request);
    result.program = QStringLiteral("as %1: %2").arg(account_.name(), argv.join(QLatin1Char(' ')));
    return result;
}

ProcessResult AccountRunner::hostShell(const QString& script, const Options& options) const
{
    return host({QStringLiteral("/bin/sh"), QStringLiteral("-c"), script}, options);
}

QStringList AccountRunner::moatRunCommand(const QStringList& runOptions, const QStringList& command) const
{
    return QStringList{install_.moat(), QStringLiteral("run")} + runOptions + QStringList{QStringLiteral("--")} +
           command;
}

ProcessResult AccountRunner::moatRun(const QStringList& runOptions, const QStringList& command,
                                     const Options& options) const
{
    return host(moatRunCommand(runOptions, command), options);
}

ProcessResult AccountRunner::moatShell(const QStringList& runOptions, const QString& script,
                                       const Options& options) const
{
    return moatRun(runOptions, {QStringLiteral("/bin/sh"), QStringLiteral("-c"), script}, options);
}

ProcessResult AccountRunner::moat(const QStringList& args, const Options& options) const
{
    return host(QStringList{install_.moat()} + args, options);
}

std::unique_ptr<BackgroundProcess> AccountRunner::startHost(const QStringList& argv) const
{
    auto process = std::make_unique<BackgroundProcess>(account_.commandLine(argv), environment(), workspace_);
    process->waitForStarted();
    return process;
}

ProcessResult AccountRunner::underPty(const QStringList& ptyOptions, const QStringList& argv,
                                      const Options& options) const
{
    return host(QStringList{QStringLiteral("/usr/bin/python3"), install_.tool(QStringLiteral("ptyrun.py"))} +
                    ptyOptions + QStringList{QStringLiteral("--")} + argv,
                options);
}

QStringList AccountRunner::sessionIds() const
{
    return QDir(stateDir() + QStringLiteral("/sessions")).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
}

QString AccountRunner::sessionDir(const QString& id) const
{
    return stateDir() + QStringLiteral("/sessions/") + id;
}
