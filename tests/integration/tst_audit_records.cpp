// SPDX-License-Identifier: Apache-2.0
// A session's records against the real binaries, a real keychain (a private
// dbus-daemon with an unlocked gnome-keyring) and the key file moat falls
// back to without one: `moat audit verify` passes an untouched session and
// names the first bad line after each kind of edit, tells a crash from
// tampering, says so when a log's key is out of reach, and the keys never
// reach the sandbox (its fds, environment or memory). As root and as an
// ordinary user.

#include "eventlog.h"
#include "integrationfixture.h"
#include "processtable.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTest>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& content)
{
    QFile file(path);  // written in place: the owner stays the account's
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

QByteArrayList linesOf(const QString& path)
{
    QByteArray content = readAll(path);
    if (content.endsWith('\n')) {
        content.chop(1);
    }
    return content.split('\n');
}

QByteArray joined(const QByteArrayList& lines)
{
    QByteArray content;
    for (const QByteArray& line : lines) {
        content += line + '\n';
    }
    return content;
}

// The record key file's keys as raw bytes: HMAC key, then Ed25519 seed.
QList<QByteArray> keysIn(const QString& keyFile)
{
    const QList<QByteArray> words = readAll(keyFile).trimmed().split(' ');
    if (words.size() != 3) {
        return {};
    }
    return {QByteArray::fromHex(words[1]), QByteArray::fromHex(words[2])};
}

QList<pid_t> childrenOf(pid_t parent)
{
    QList<pid_t> children;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool numeric = false;
        const pid_t pid = entry.toInt(&numeric);
        if (!numeric) {
            continue;
        }
        // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
        const QByteArray stat = readAll(QStringLiteral("/proc/%1/stat").arg(pid));
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toInt() == parent) {
            children.append(pid);
        }
    }
    return children;
}

QStringList openFiles(pid_t pid)
{
    QStringList targets;
    const QString dir = QStringLiteral("/proc/%1/fd").arg(pid);
    for (const QString& fd : QDir(dir).entryList(QDir::Files | QDir::System)) {
        targets.append(QFile::symLinkTarget(dir + QLatin1Char('/') + fd));
    }
    return targets;
}

// Whether any readable mapping of `pid` holds `needle`; nullopt when its
// memory cannot be read (not root, or the process is gone).
std::optional<bool> memoryHolds(pid_t pid, const QByteArray& needle)
{
    QFile maps(QStringLiteral("/proc/%1/maps").arg(pid));
    QFile memory(QStringLiteral("/proc/%1/mem").arg(pid));
    if (!maps.open(QIODevice::ReadOnly) || !memory.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        return std::nullopt;
    }
    bool readSome = false;
    for (const QByteArray& line : maps.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 2 || !fields[1].startsWith('r') || line.contains("[vvar]") || line.contains("[vsyscall]")) {
            continue;
        }
        const QList<QByteArray> range = fields[0].split('-');
        const qulonglong start = range[0].toULongLong(nullptr, 16);
        const qulonglong end = range[1].toULongLong(nullptr, 16);
        if (!memory.seek(static_cast<qint64>(start))) {
            continue;
        }
        const QByteArray bytes = memory.read(static_cast<qint64>(end - start));
        readSome = readSome || !bytes.isEmpty();
        if (bytes.contains(needle)) {
            return true;
        }
    }
    return readSome ? std::optional<bool>(false) : std::nullopt;
}

// A private session bus with an unlocked gnome-keyring, run as the row's
// account (ENVIRONMENT.md, "A real keychain in tests"). Its keyrings and
// runtime files live in directories of the test; the bus and the keyring
// end with the object.
class PrivateKeychain
{
public:
    static QString missingTools()
    {
        for (const char* tool : {"dbus-run-session", "gnome-keyring-daemon"}) {
            if (QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty()) {
                return QStringLiteral("%1 is not installed (Debian: dbus, gnome-keyring)").arg(QLatin1String(tool));
            }
        }
        return {};
    }

    bool start(AccountRunner* runner, QString* error)
    {
        runtime_ = runner->newDirectory(QStringLiteral("keychain-run"), error);
        const QString data = runner->newDirectory(QStringLiteral("keychain-data"), error);
        if (runtime_.isEmpty() || data.isEmpty() ||
            !QFile::setPermissions(runtime_, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)) {
            return false;
        }
        // The bus listens in the test's runtime directory: the stock session
        // configuration would leave its socket behind in /tmp.
        const QString config = runtime_ + QStringLiteral("/bus.conf");
        QFile configFile(config);
        if (!configFile.open(QIODevice::WriteOnly) ||
            configFile.write(QStringLiteral("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration "
                                            "1.0//EN\"\n \"http://www.freedesktop.org/standards/dbus/1.0/"
                                            "busconfig.dtd\">\n<busconfig><type>session</type>"
                                            "<listen>unix:path=%1/bus</listen><auth>EXTERNAL</auth>"
                                            "<policy context=\"default\"><allow send_destination=\"*\" "
                                            "eavesdrop=\"true\"/><allow eavesdrop=\"true\"/><allow own=\"*\"/>"
                                            "</policy></busconfig>\n")
                                 .arg(runtime_)
                                 .toUtf8()) < 0) {
            *error = QStringLiteral("cannot write %1").arg(config);
            return false;
        }
        configFile.close();
        // printf, not echo: the newline would become part of the password.
        const QString script =
            QStringLiteral(
                "export XDG_RUNTIME_DIR=%1 XDG_DATA_HOME=%2; exec dbus-run-session --config-file=%3 -- sh -c '"
                "printf %s test-pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null && "
                // Ready once the keyring owns its name: --unlock may return first.
                "i=0; until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus "
                "org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets | grep -q true || [ $i -ge 200 ]; "
                "do sleep 0.05; i=$((i+1)); done; "
                "echo \"BUS=$DBUS_SESSION_BUS_ADDRESS;\" && exec sleep 600'")
                .arg(runtime_, data, config);
        bus_ = runner->startHost({QStringLiteral("/bin/sh"), QStringLiteral("-c"), script});
        if (!bus_->waitForOutput(";\n", 15000)) {
            *error = QStringLiteral("the private keychain did not start: %1").arg(QString::fromUtf8(bus_->output()));
            return false;
        }
        const QByteArray output = bus_->output();
        const qsizetype at = output.indexOf("BUS=");
        address_ = QString::fromUtf8(output.mid(at + 4, output.indexOf(";\n", at) - at - 4));
        return !address_.isEmpty();
    }

    QMap<QString, QString> environment() const
    {
        return {{QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), address_}, {QStringLiteral("XDG_RUNTIME_DIR"), runtime_}};
    }

private:
    std::unique_ptr<BackgroundProcess> bus_;
    QString address_;
    QString runtime_;
};

}  // namespace

class AuditRecords : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void keysLiveInARealKeychain_data();
    void keysLiveInARealKeychain();
    void verifyNamesTheFirstBadLine_data();
    void verifyNamesTheFirstBadLine();
    void aCrashIsNotTampering_data();
    void aCrashIsNotTampering();
    void withoutAKeychainTheKeysAreInAPrivateFile_data();
    void withoutAKeychainTheKeysAreInAPrivateFile();
    void verifyAllChecksEverySession_data();
    void verifyAllChecksEverySession();
    void theKeysNeverReachTheSandbox_data();
    void theKeysNeverReachTheSandbox();

private:
    // Runs `moat run -- sh -c 'echo $MOAT_SESSION'`; the new session's id.
    QString newSession(AccountRunner* runner, const RunOptions& options = {});
    IntegrationFixture fixture_;
};

void AuditRecords::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void AuditRecords::init()
{
    fixture_.renewWorkspaces();
}

void AuditRecords::cleanupTestCase()
{
    fixture_.tearDown();
}

QString AuditRecords::newSession(AccountRunner* runner, const RunOptions& options)
{
    const ProcessResult run = runner->moatShell({}, QStringLiteral("echo \"$MOAT_SESSION\""), options);
    if (!run.succeeded()) {
        qWarning("%s", qPrintable(run.describe()));
        return {};
    }
    return run.stdOut().trimmed();
}

void AuditRecords::keysLiveInARealKeychain_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void AuditRecords::keysLiveInARealKeychain()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (const QString missing = PrivateKeychain::missingTools(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    PrivateKeychain keychain;
    QString error;
    QVERIFY2(keychain.start(runner, &error), qPrintable(error));

    // A config dir without a key file: with a keychain there, none is made.
    RunOptions options;
    options.environment = keychain.environment();
    const QString config = runner->newDirectory(QStringLiteral("config"));
    options.environment.insert(QStringLiteral("MOAT_CONFIG_DIR"), config);

    const ProcessResult first = runner->moatShell({}, QStringLiteral("echo \"$MOAT_SESSION\""), options);
    QVERIFY2(first.succeeded() && first.err.isEmpty(), qPrintable(first.describe()));
    const QString id = first.stdOut().trimmed();
    const QString second = newSession(runner, options);
    QVERIFY(!id.isEmpty() && !second.isEmpty());
    QVERIFY2(QDir(config).isEmpty(), qPrintable(QDir(config).entryList().join(QLatin1Char(','))));

    const EventLog log = EventLog::read(runner->sessionDir(id) + QStringLiteral("/events.jsonl"));
    QVERIFY2(log.chainProblem().isEmpty(), qPrintable(log.chainProblem()));
    const QJsonObject records =
        log.first(QStringLiteral("session.start")).value(QStringLiteral("data")).toObject().value("records").toObject();
    QCOMPARE(records.value(QStringLiteral("keys_in")).toString(), QStringLiteral("keychain"));
    const QString keyId = records.value(QStringLiteral("key")).toString();
    QCOMPARE(keyId.size(), 16);
    QCOMPARE(log.events().first().value(QStringLiteral("key")).toString(), keyId);
    const EventLog secondLog = EventLog::read(runner->sessionDir(second) + QStringLiteral("/events.jsonl"));
    QCOMPARE(secondLog.events().first().value(QStringLiteral("key")).toString(), keyId);

    const ProcessResult verified = runner->moat({QStringLiteral("audit"), QStringLiteral("verify"), id}, options);
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.describe()));
    QVERIFY2(verified.stdOut().contains(id + QStringLiteral(": intact")) && verified.stdOut().contains("sealed") &&
                 verified.stdOut().contains(QStringLiteral("in keychain")),
             qPrintable(verified.describe()));

    // Edited: the first bad line, and status 1.
    const QString events = runner->sessionDir(id) + QStringLiteral("/events.jsonl");
    QByteArrayList lines = linesOf(events);
    QVERIFY(lines.size() >= 3);
    lines[1].replace("echo", "ECHO");
    QVERIFY(writeAll(events, joined(lines)));
    const ProcessResult broken = runner->moat({QStringLiteral("audit"), QStringLiteral("verify"), id}, options);
    QVERIFY2(broken.exitCode == 1, qPrintable(broken.describe()));
    QVERIFY2(broken.stdOut().contains(id + QStringLiteral(": BROKEN at line 2:")), qPrintable(broken.describe()));

    // Away from the keychain, the keys are out of reach: an error that says so.
    RunOptions away;
    away.environment.insert(QStringLiteral("MOAT_CONFIG_DIR"), config);
    const ProcessResult elsewhere = runner->moat({QStringLiteral("audit"), QStringLiteral("verify"), second}, away);
    QVERIFY2(elsewhere.exitCode == 1, qPrintable(elsewhere.describe()));
    QVERIFY2(elsewhere.stdOut().contains(QStringLiteral("cannot verify")) && elsewhere.stdOut().contains(keyId) &&
                 elsewhere.stdOut().contains(QStringLiteral("keychain")),
             qPrintable(elsewhere.describe()));
}

void AuditRecords::verifyNamesTheFirstBadLine_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("reported");
    const QList<std::pair<const char*, const char*>> edits = {
        {"altered line 2", "BROKEN at line 2:"},        {"line 2 removed", "BROKEN at line 2:"},
        {"lines 2 and 3 swapped", "BROKEN at line 2:"}, {"line 1 copied after itself", "BROKEN at line 2:"},
        {"last line cut off", "BROKEN at line 3:"},     {"half of the last line cut off", "BROKEN at line 3:"},
        {"seal removed", "BROKEN at line 4:"},          {"seal altered", "BROKEN: the seal"},
    };
    for (const char* account : {"root", "user"}) {
        for (const auto& [edit, reported] : edits) {
            QTest::addRow("%s: %s", account, edit)
                << QString::fromLatin1(account) << QString::fromLatin1(edit) << QString::fromLatin1(reported);
        }
    }
}

void AuditRecords::verifyNamesTheFirstBadLine()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, edit);
    QFETCH(QString, reported);
    const QString id = newSession(runner);
    QVERIFY(!id.isEmpty());
    const QString events = runner->sessionDir(id) + QStringLiteral("/events.jsonl");
    const QString seal = runner->sessionDir(id) + QStringLiteral("/events.seal");
    const QStringList verify{QStringLiteral("audit"), QStringLiteral("verify"), id};
    const ProcessResult before = runner->moat(verify);
    QVERIFY2(before.exitCode == 0, qPrintable(before.describe()));

    QByteArrayList lines = linesOf(events);
    QCOMPARE(lines.size(), 3);  // session.start, exec, session.end
    if (edit == QLatin1String("altered line 2")) {
        lines[1].replace("\"pid\":", "\"pid\":1");
    } else if (edit == QLatin1String("line 2 removed")) {
        lines.removeAt(1);
    } else if (edit == QLatin1String("lines 2 and 3 swapped")) {
        lines.swapItemsAt(1, 2);
    } else if (edit == QLatin1String("line 1 copied after itself")) {
        lines.insert(1, lines[0]);
    } else if (edit == QLatin1String("last line cut off")) {
        lines.removeLast();
    }
    if (edit == QLatin1String("half of the last line cut off")) {
        const QByteArray content = readAll(events);
        QVERIFY(writeAll(events, content.left(content.size() - lines.last().size() / 2)));
    } else if (edit == QLatin1String("seal removed")) {
        QVERIFY(QFile::remove(seal));
    } else if (edit == QLatin1String("seal altered")) {
        QVERIFY(writeAll(seal, readAll(seal).replace("\"lines\":3", "\"lines\":2")));
    } else {
        QVERIFY(writeAll(events, joined(lines)));
    }

    const ProcessResult after = runner->moat(verify);
    QVERIFY2(after.exitCode == 1, qPrintable(after.describe()));
    QVERIFY2(after.stdOut().startsWith(id + QStringLiteral(": ") + reported), qPrintable(after.describe()));
}

void AuditRecords::aCrashIsNotTampering_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void AuditRecords::aCrashIsNotTampering()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString marker = QStringLiteral("moat-audit-crash-%1").arg(::getpid());
    auto moat = runner->startHost(runner->moatRunCommand({QStringLiteral("--name"), marker},
                                                         {QStringLiteral("/bin/sleep"), QStringLiteral("600")}));
    const auto sessionNamed = [runner, &marker] {
        for (const QString& candidate : runner->sessionIds()) {
            if (readAll(runner->sessionDir(candidate) + QStringLiteral("/spec.json")).contains(marker.toUtf8())) {
                return candidate;
            }
        }
        return QString();
    };
    QString id;
    QTRY_VERIFY_WITH_TIMEOUT(!(id = sessionNamed()).isEmpty(), 10000);
    QVERIFY(!id.isEmpty());
    const QStringList verify{QStringLiteral("audit"), QStringLiteral("verify"), id};

    // Running: intact so far, not sealed yet.
    QTRY_VERIFY_WITH_TIMEOUT(readAll(runner->sessionDir(id) + "/status.json").contains("running"), 10000);
    const ProcessResult running = runner->moat(verify);
    QVERIFY2(running.exitCode == 0 && running.stdOut().contains(QStringLiteral("still running")),
             qPrintable(running.describe()));

    // The supervisor dies without a word: said, not failed.
    QVERIFY(::kill(moat->pid(), SIGKILL) == 0);
    QTRY_VERIFY_WITH_TIMEOUT(!moat->isRunning(), 5000);
    const ProcessResult crashed = runner->moat(verify);
    QVERIFY2(crashed.exitCode == 0 && crashed.stdOut().contains(QStringLiteral("not sealed")) &&
                 crashed.stdOut().contains(QStringLiteral("did not end cleanly")),
             qPrintable(crashed.describe()));

    // A line it was writing when it died: a torn tail, still not tampering.
    const QString events = runner->sessionDir(id) + QStringLiteral("/events.jsonl");
    QVERIFY(writeAll(events, readAll(events) + "{\"data\":{\"argv\":[\"ma"));
    const ProcessResult torn = runner->moat(verify);
    QVERIFY2(torn.exitCode == 0 && torn.stdOut().contains(QStringLiteral("torn last line")),
             qPrintable(torn.describe()));

    // But a session whose status says it ended cleanly has lost its seal.
    const QString status = runner->sessionDir(id) + QStringLiteral("/status.json");
    QVERIFY(writeAll(status, "{\"state\": \"exited\", \"exit_code\": 0}\n"));
    const ProcessResult cut = runner->moat(verify);
    QVERIFY2(cut.exitCode == 1 && cut.stdOut().contains(QStringLiteral("BROKEN")), qPrintable(cut.describe()));
}

void AuditRecords::withoutAKeychainTheKeysAreInAPrivateFile_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void AuditRecords::withoutAKeychainTheKeysAreInAPrivateFile()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    // No session bus (the harness gives none), and a config dir without keys.
    const QString config = runner->newDirectory(QStringLiteral("config"));
    RunOptions options;
    options.environment.insert(QStringLiteral("MOAT_CONFIG_DIR"), config);
    const QString keyFile = config + QStringLiteral("/record-keys");

    const ProcessResult first = runner->moatShell({}, QStringLiteral("echo \"$MOAT_SESSION\""), options);
    QVERIFY2(first.succeeded(), qPrintable(first.describe()));
    QVERIFY2(first.stdErr().contains(QStringLiteral("no keychain is reachable")) && first.stdErr().contains(keyFile),
             qPrintable(first.describe()));
    struct stat info {
    };
    QCOMPARE(::stat(keyFile.toLocal8Bit().constData(), &info), 0);
    QCOMPARE(info.st_mode & 07777, mode_t(0600));
    QCOMPARE(info.st_uid, runner->account().uid());

    // Said once: the next session uses the same file quietly.
    const ProcessResult second = runner->moatShell({}, QStringLiteral("echo \"$MOAT_SESSION\""), options);
    QVERIFY2(second.succeeded() && second.err.isEmpty(), qPrintable(second.describe()));

    const QString id = first.stdOut().trimmed();
    const EventLog log = EventLog::read(runner->sessionDir(id) + QStringLiteral("/events.jsonl"));
    const QJsonObject records =
        log.first(QStringLiteral("session.start")).value(QStringLiteral("data")).toObject().value("records").toObject();
    QCOMPARE(records.value(QStringLiteral("keys_in")).toString(), keyFile);
    const ProcessResult verified = runner->moat({QStringLiteral("audit"), QStringLiteral("verify"), id}, options);
    QVERIFY2(verified.exitCode == 0 && verified.stdOut().contains(keyFile), qPrintable(verified.describe()));

    // A key file others could read is refused, and nothing runs.
    QVERIFY(QFile::setPermissions(keyFile, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
    const ProcessResult refused = runner->moatRun({}, {QStringLiteral("/bin/true")}, options);
    QVERIFY2(refused.exitCode == 125 && refused.stdErr().contains(QStringLiteral("chmod 600")),
             qPrintable(refused.describe()));
}

void AuditRecords::verifyAllChecksEverySession_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void AuditRecords::verifyAllChecksEverySession()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    RunOptions options;
    options.environment.insert(QStringLiteral("MOAT_STATE_DIR"), runner->newDirectory(QStringLiteral("state")));
    const QStringList all{QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--all")};

    const ProcessResult none = runner->moat(all, options);
    QVERIFY2(none.exitCode == 0 && none.stdOut().contains(QStringLiteral("no sessions")), qPrintable(none.describe()));

    QStringList ids;
    for (int i = 0; i < 3; ++i) {
        ids.append(newSession(runner, options));
        QVERIFY(!ids.last().isEmpty());
    }
    const ProcessResult intact = runner->moat(all, options);
    QVERIFY2(intact.exitCode == 0 && intact.stdOut().contains(QStringLiteral("3 of 3 logs intact")),
             qPrintable(intact.describe()));

    const QString events =
        options.environment.value(QStringLiteral("MOAT_STATE_DIR")) + "/sessions/" + ids[1] + "/events.jsonl";
    QByteArrayList lines = linesOf(events);
    lines.removeAt(2);
    QVERIFY(writeAll(events, joined(lines)));
    const ProcessResult broken = runner->moat(all, options);
    QVERIFY2(broken.exitCode == 1, qPrintable(broken.describe()));
    const QString out = broken.stdOut();
    QVERIFY2(out.contains(ids[0] + QStringLiteral(": intact")) && out.contains(ids[2] + QStringLiteral(": intact")) &&
                 out.contains(ids[1] + QStringLiteral(": BROKEN at line 3:")) &&
                 out.contains(QStringLiteral("2 of 3 logs intact")),
             qPrintable(broken.describe()));

    const ProcessResult unknown =
        runner->moat({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("0000000000000000")}, options);
    QVERIFY2(unknown.exitCode == 125 && unknown.stdErr().startsWith(QStringLiteral("moat: ")),
             qPrintable(unknown.describe()));
}

void AuditRecords::theKeysNeverReachTheSandbox_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void AuditRecords::theKeysNeverReachTheSandbox()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QList<QByteArray> keys = keysIn(runner->configDir() + QStringLiteral("/record-keys"));
    QCOMPARE(keys.size(), 2);
    const QByteArray hmacHex = keys[0].toHex();

    // From inside: no fd, environment variable or argument holds them.
    const ProcessResult inside = runner->moatShell(
        {}, QStringLiteral("ls -l /proc/self/fd/ /proc/1/fd/ 2>&1; tr '\\0' '\\n' </proc/self/environ; "
                           "tr '\\0' ' ' </proc/1/cmdline"));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(!inside.out.contains("moat-record-keys") && !inside.out.contains(hmacHex), qPrintable(inside.describe()));

    // From outside, during a session: the supervisor holds them (in memory,
    // its fd long closed); sandbox init, a clone of it, and the command do not.
    const QString marker = QStringLiteral("moat-audit-keys-%1").arg(::getpid());
    auto moat = runner->startHost(
        runner->moatRunCommand({QStringLiteral("--name"), marker},
                               {QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exec sleep 600")}));
    const pid_t supervisor = moat->pid();
    QList<pid_t> inits;
    QList<pid_t> commands;
    QTRY_VERIFY_WITH_TIMEOUT((inits = childrenOf(supervisor)).size() == 1 &&
                                 (commands = childrenOf(inits.first())).size() == 1 &&
                                 ProcessTable::commandLine(commands.first()).startsWith("sleep"),
                             10000);
    QVERIFY(ProcessTable::commandLine(supervisor).contains("--keys-fd"));
    for (pid_t pid : {supervisor, inits.first(), commands.first()}) {
        const QStringList files = openFiles(pid);
        QVERIFY2(!files.join(QLatin1Char(' ')).contains(QStringLiteral("moat-record-keys")),
                 qPrintable(files.join(QLatin1Char(' '))));
        QVERIFY(!ProcessTable::commandLine(pid).contains(hmacHex));
        QVERIFY(!readAll(QStringLiteral("/proc/%1/environ").arg(pid)).contains(hmacHex));
    }
    if (!IntegrationFixture::runningAsRoot()) {
        QSKIP("reading the sandbox's memory needs root");
    }
    for (const QByteArray& key : keys) {
        // The search finds what is there...
        QVERIFY(memoryHolds(supervisor, key) == std::optional<bool>(true));
        // ...and it is not in the sandbox.
        QVERIFY(memoryHolds(inits.first(), key) == std::optional<bool>(false));
        QVERIFY(memoryHolds(commands.first(), key) == std::optional<bool>(false));
    }
}

QTEST_GUILESS_MAIN(AuditRecords)
#include "tst_audit_records.moc"
