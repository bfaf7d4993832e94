// SPDX-License-Identifier: Apache-2.0
#include "moatdbus.h"

#include "accountrunner.h"
#include "moatinstall.h"
#include "processtable.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QThread>

#include <signal.h>

namespace {

const QString kServiceFile = QStringLiteral("org.moat.Manager1.service");

// The activation file the build tree made for moatd (packaging/).
QString buildTreeServiceFile()
{
    QDirIterator it(QStringLiteral(MOAT_BUILD_DIR), {kServiceFile}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (!path.contains(QLatin1String("/tests/"))) {
            return path;
        }
    }
    return {};
}

QString quoted(const QString& word)
{
    QString text = word;
    text.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + text + QLatin1Char('\'');
}

bool writeFile(const QString& path, const QByteArray& content, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool copyProgram(const QString& from, const QString& to, QString* error)
{
    if (QFileInfo::exists(to)) {
        return true;
    }
    if (!QFile::copy(from, to) ||
        !QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                       QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther)) {
        *error = QStringLiteral("cannot copy %1 to %2").arg(from, to);
        return false;
    }
    return true;
}

}  // namespace

MoatdBus::~MoatdBus()
{
    // moatd may outlive its bus for a moment; the next test wants none.
    killMoatd();
}

QString MoatdBus::missingPieces()
{
    for (const char* tool : {"dbus-daemon", "gnome-keyring-daemon", "dbus-send"}) {
        if (QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty()) {
            return QStringLiteral("%1 is not installed (Debian: dbus, gnome-keyring)").arg(QLatin1String(tool));
        }
    }
    if (!QFileInfo::exists(QStringLiteral(MOAT_BIN_DIR "/moatd"))) {
        return QStringLiteral("moatd is not built (helper/): " MOAT_BIN_DIR "/moatd is missing");
    }
    if (buildTreeServiceFile().isEmpty()) {
        return QStringLiteral("the build tree has no D-Bus activation file %1 for moatd (packaging/)").arg(kServiceFile);
    }
    return {};
}

QString MoatdBus::moatdProgram() const
{
    return runner_->install().dir() + QStringLiteral("/moatd");
}

bool MoatdBus::start(QString* error, Access access)
{
    AccountRunner* runner = runner_;
    // moatd joins the private install: it starts the moat-supervisor beside it.
    if (!copyProgram(QStringLiteral(MOAT_BIN_DIR "/moatd"), moatdProgram(), error)) {
        return false;
    }
    runtime_ = runner->newDirectory(QStringLiteral("bus-run"), error);
    const QString data = runner->newDirectory(QStringLiteral("bus-data"), error);
    const QString services = runner->newDirectory(QStringLiteral("bus-services"), error);
    if (runtime_.isEmpty() || data.isEmpty() || services.isEmpty() ||
        !QFile::setPermissions(runtime_, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)) {
        return false;
    }
    // The build tree's activation file, run from the private install: the
    // build tree may sit where the test user cannot reach it.
    QFile source(buildTreeServiceFile());
    if (!source.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read moatd's activation file %1").arg(source.fileName());
        return false;
    }
    QByteArray service;
    for (const QByteArray& line : source.readAll().split('\n')) {
        if (line.startsWith("Exec=")) {
            const qsizetype space = line.indexOf(' ');
            service += "Exec=" + moatdProgram().toUtf8() + (space > 0 ? line.mid(space) : QByteArray()) + '\n';
        } else if (!line.startsWith("SystemdService=")) {
            service += line + '\n';
        }
    }
    const QString config = services + QStringLiteral("/bus.conf");
    address_ = QStringLiteral("unix:path=%1/bus").arg(runtime_);
    QString openListen;
    QString openPolicy;
    if (access == Access::AnyUser) {
        // In a 0755 directory of the test's, beside the owner's 0700 one.
        openAddress_ = QStringLiteral("unix:path=%1/bus-open").arg(services);
        openListen = QStringLiteral("  <listen>%1</listen>\n").arg(openAddress_);
        openPolicy = QStringLiteral("    <allow user=\"*\"/>\n");
    }
    const QByteArray busConfig = QStringLiteral(
        "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
        " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
        "<busconfig>\n"
        "  <type>session</type>\n"
        "  <listen>%1</listen>\n"
        "%3"
        "  <auth>EXTERNAL</auth>\n"
        "  <servicedir>%2</servicedir>\n"
        "  <policy context=\"default\">\n"
        "%4"
        "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
        "    <allow eavesdrop=\"true\"/>\n"
        "    <allow own=\"*\"/>\n"
        "  </policy>\n"
        "</busconfig>\n").arg(address_, services, openListen, openPolicy).toUtf8();
    if ((moatdActivatable_ && !writeFile(services + QLatin1Char('/') + kServiceFile, service, error)) ||
        !writeFile(config, busConfig, error)) {
        return false;
    }
    // printf, not echo: the newline would become part of the password.
    const QString script =
        QStringLiteral("export XDG_RUNTIME_DIR=%1 XDG_DATA_HOME=%2 DBUS_SESSION_BUS_ADDRESS=%3; "
                       "dbus-daemon --config-file=%4 --nofork & bus=$!; "
                       "i=0; while [ ! -S %1/bus ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; "
                       "%5echo READY; wait $bus")
            .arg(runtime_, data, address_, config,
                 // Ready once the keyring owns its name: --unlock may return first.
                 keyring_ ? QStringLiteral("printf %s test-pass | gnome-keyring-daemon --unlock "
                                           "--components=secrets >/dev/null && { i=0; until dbus-send --session "
                                           "--print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus "
                                           "org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets "
                                           "| grep -q true || [ $i -ge 200 ]; do sleep 0.05; i=$((i+1)); done; } && ")
                          : QString());
    bus_ = runner->startHost({QStringLiteral("/bin/sh"), QStringLiteral("-c"), script});
    if (!bus_->waitForOutput("READY\n", 20000)) {
        *error = QStringLiteral("the private bus did not start: %1").arg(QString::fromUtf8(bus_->output()));
        return false;
    }
    return true;
}

QMap<QString, QString> MoatdBus::environment() const
{
    return {{QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), address_}, {QStringLiteral("XDG_RUNTIME_DIR"), runtime_}};
}

QString MoatdBus::exports() const
{
    return QStringLiteral("export DBUS_SESSION_BUS_ADDRESS=%1 XDG_RUNTIME_DIR=%2; ").arg(address_, runtime_);
}

pid_t MoatdBus::moatdPid() const
{
    const QString program = QFileInfo(moatdProgram()).canonicalFilePath();
    for (pid_t pid : ProcessTable::withExecutableIn(runner_->install().dir())) {
        // The install is shared by the rows: this account's moatd only.
        if (QFileInfo(QStringLiteral("/proc/%1/exe").arg(pid)).symLinkTarget() == program &&
            QFileInfo(QStringLiteral("/proc/%1").arg(pid)).ownerId() == runner_->account().uid()) {
            return pid;
        }
    }
    return 0;
}

bool MoatdBus::killMoatd()
{
    const pid_t pid = moatdPid();
    if (pid <= 0) {
        return false;
    }
    ::kill(pid, SIGKILL);
    QDeadlineTimer deadline(5000);
    while (ProcessTable::isAlive(pid) && !deadline.hasExpired()) {
        QThread::msleep(20);
    }
    return !ProcessTable::isAlive(pid);
}

std::unique_ptr<BackgroundProcess> MoatdBus::startSession(const QStringList& options, const QString& script,
                                                          bool withBus) const
{
    QStringList words;
    const QStringList command = {QStringLiteral("/bin/sh"), QStringLiteral("-c"), script};
    for (const QString& word : runner_->moatRunCommand(options, command)) {
        words.append(quoted(word));
    }
    const QString line = (withBus ? exports() : QString()) + words.join(QLatin1Char(' ')) +
                         QStringLiteral("; echo \"EXIT=$?\"");
    return runner_->startHost({QStringLiteral("/bin/sh"), QStringLiteral("-c"), line});
}

QJsonObject MoatdBus::session(const QString& name, bool withBus) const
{
    RunOptions options;
    if (withBus) {
        options.environment = environment();
    }
    const ProcessResult ps =
        runner_->moat({QStringLiteral("ps"), QStringLiteral("--all"), QStringLiteral("--json")}, options);
    QJsonObject found;
    for (const auto& entry : QJsonDocument::fromJson(ps.out).array()) {
        if (entry.toObject().value(QLatin1String("name")).toString() == name) {
            found = entry.toObject();  // oldest first: the last is the newest
        }
    }
    return found;
}

bool MoatdBus::waitForState(const QString& name, const QString& state, int msecs) const
{
    return waitUntil([&] { return session(name).value(QLatin1String("state")).toString() == state; }, msecs);
}

bool MoatdBus::waitUntil(const std::function<bool()>& condition, int msecs)
{
    QDeadlineTimer deadline(msecs);
    while (!condition()) {
        if (deadline.hasExpired()) {
            return false;
        }
        QThread::msleep(50);
    }
    return true;
}

