// SPDX-License-Identifier: Apache-2.0
// moatd against a real private dbus-daemon (with moatd's build-tree
// activation file in its <servicedir>) and a real gnome-keyring, driven
// through the proxy generated from helper/org.moat.Manager1.xml: only its
// owner may call it, secrets go into the keychain and never come out, a
// session started with the caller's pipes runs and reports its exit code on
// the client link, a killed supervisor fails its session and leaves nothing
// running, and a restarted moatd finds a running session again.

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusUnixFileDescriptor>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/moat_paths.h"
#include "hostaccount.h"
#include "manager_interface.h"
#include "policy/spec_builder.h"
#include "policy/spec_json.h"

namespace {

constexpr int kStartMs = 30000;

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Polls `condition` (running the event loop) until it holds or time runs out.
template <typename Condition>
bool waitFor(Condition condition, int msecs)
{
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > msecs) {
            return false;
        }
        QTest::qWait(50);
    }
    return true;
}

// Processes whose command line holds `marker` (the sandbox's command).
QList<pid_t> processesWith(const QByteArray& marker)
{
    QList<pid_t> found;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool numeric = false;
        const pid_t pid = entry.toInt(&numeric);
        if (numeric && pid != ::getpid() && readAll(QStringLiteral("/proc/%1/cmdline").arg(pid)).contains(marker)) {
            found.append(pid);
        }
    }
    return found;
}

// A private session bus as a desktop has one: its own dbus-daemon, which
// accepts every local user (so that a caller of another uid can try), moatd
// by activation from the build tree's org.moat.Manager1.service, and,
// when asked, an unlocked gnome-keyring. moat's directories are private.
class PrivateBus {
public:
    ~PrivateBus()
    {
        if (moatdPid() > 0) {
            ::kill(moatdPid(), SIGKILL);
        }
        connection_.reset();
        QDBusConnection::disconnectFromBus(name_);
        if (daemon_.state() != QProcess::NotRunning) {
            daemon_.kill();
            daemon_.waitForFinished(5000);
        }
    }

    bool start(bool withKeychain, QString* error)
    {
        if (!dir_.isValid()) {
            *error = QStringLiteral("no temporary directory");
            return false;
        }
        // 0755 so that another account can reach the bus socket.
        QFile::setPermissions(dir_.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                               QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
        for (const char* sub : {"config", "state", "data", "run", "home", "xdg-run"}) {
            QDir(dir_.path()).mkpath(QLatin1String(sub));
        }
        QFile::setPermissions(path("xdg-run"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString config = path("bus.conf");
        QFile file(config);
        file.open(QIODevice::WriteOnly);
        file.write(QStringLiteral("<busconfig>\n"
                                  "  <type>session</type>\n"
                                  "  <listen>unix:path=%1</listen>\n"
                                  "  <auth>EXTERNAL</auth>\n"
                                  "  <servicedir>%2</servicedir>\n"
                                  "  <policy context=\"default\">\n"
                                  "    <allow user=\"*\"/>\n"
                                  "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
                                  "    <allow eavesdrop=\"true\"/>\n"
                                  "    <allow own=\"*\"/>\n"
                                  "  </policy>\n"
                                  "</busconfig>\n")
                       .arg(path("bus"), QStringLiteral(MOAT_BUILD_DIR "/share/dbus-1/services"))
                       .toUtf8());
        file.close();
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
        environment.insert(QStringLiteral("HOME"), path("home"));
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), path("xdg-run"));
        environment.insert(QStringLiteral("XDG_DATA_HOME"), path("home"));
        environment.insert(QStringLiteral("MOAT_CONFIG_DIR"), path("config"));
        environment.insert(QStringLiteral("MOAT_STATE_DIR"), path("state"));
        environment.insert(QStringLiteral("MOAT_DATA_DIR"), path("data"));
        environment.insert(QStringLiteral("MOAT_RUNTIME_DIR"), path("run"));
        environment_ = environment;
        daemon_.setProcessEnvironment(environment);
        daemon_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        daemon_.start(QStringLiteral("dbus-daemon"), {QStringLiteral("--nofork"), QStringLiteral("--print-address"),
                                                      QStringLiteral("--config-file=") + config});
        if (!daemon_.waitForReadyRead(10000)) {
            *error = QStringLiteral("the private dbus-daemon did not start");
            return false;
        }
        address_ = QString::fromUtf8(daemon_.readLine()).trimmed();
        environment_.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), address_);
        if (withKeychain) {
            QProcess keyring;
            keyring.setProcessEnvironment(environment_);
            keyring.start(QStringLiteral("sh"),
                          {QStringLiteral("-c"), QStringLiteral("printf %s test-pass | gnome-keyring-daemon --unlock "
                                                                "--components=secrets >/dev/null")});
            if (!keyring.waitForFinished(15000) || keyring.exitCode() != 0) {
                *error = QStringLiteral("gnome-keyring-daemon did not start: %1")
                             .arg(QString::fromUtf8(keyring.readAllStandardError()));
                return false;
            }
        }
        connection_ = std::make_unique<QDBusConnection>(QDBusConnection::connectToBus(address_, name_));
        if (!connection_->isConnected()) {
            *error = QStringLiteral("cannot connect to the private bus: %1").arg(connection_->lastError().message());
            return false;
        }
        // gnome-keyring-daemon returns before it owns its name on the bus.
        if (withKeychain && !waitFor(
                                [this] {
                                    return connection_->interface()
                                        ->isServiceRegistered(QStringLiteral("org.freedesktop.secrets"))
                                        .value();
                                },
                                15000)) {
            *error = QStringLiteral("gnome-keyring-daemon did not take org.freedesktop.secrets on the bus");
            return false;
        }
        manager_ = std::make_unique<OrgMoatManager1Interface>(QStringLiteral("org.moat.Manager1"),
                                                              QStringLiteral("/org/moat/Manager1"), *connection_);
        manager_->setTimeout(60000);
        return true;
    }

    QString path(const char* sub) const { return dir_.filePath(QLatin1String(sub)); }
    QString address() const { return address_; }
    OrgMoatManager1Interface& manager() { return *manager_; }
    QDBusConnection& connection() { return *connection_; }
    moat::MoatPaths paths() const
    {
        return {path("config").toStdString(), path("state").toStdString(), path("data").toStdString(),
                path("run").toStdString()};
    }

    pid_t moatdPid() const
    {
        if (!connection_) {
            return 0;
        }
        const auto pid = connection_->interface()->servicePid(QStringLiteral("org.moat.Manager1"));
        return pid.isValid() ? static_cast<pid_t>(pid.value()) : 0;
    }

private:
    QTemporaryDir dir_{QStringLiteral("/tmp/moat-it-moatd-XXXXXX")};
    QString name_ = QStringLiteral("moatd-test-%1").arg(reinterpret_cast<quintptr>(this));
    QProcess daemon_;
    QProcessEnvironment environment_;
    QString address_;
    std::unique_ptr<QDBusConnection> connection_;
    std::unique_ptr<OrgMoatManager1Interface> manager_;
};

// A session started through StartSession with pipes for stdio and a
// socketpair as its client link, read by the test.
struct StartedSession {
    QString id;
    QString error;
    int stdoutRead = -1;
    int clientEnd = -1;
    QByteArray linkText;

    ~StartedSession()
    {
        for (int fd : {stdoutRead, clientEnd}) {
            if (fd >= 0) {
                ::close(fd);
            }
        }
    }

    // Reads what the client link has said so far.
    void pump()
    {
        char buffer[4096];
        for (;;) {
            const ssize_t n = ::recv(clientEnd, buffer, sizeof buffer, MSG_DONTWAIT);
            if (n <= 0) {
                return;
            }
            linkText.append(buffer, n);
        }
    }

    QJsonObject message(const QString& type)
    {
        pump();
        for (const QByteArray& line : linkText.split('\n')) {
            const QJsonObject object = QJsonDocument::fromJson(line).object();
            if (object.value(QStringLiteral("t")).toString() == type) {
                return object;
            }
        }
        return {};
    }

    bool waitFor(const QString& type, int msecs = kStartMs)
    {
        return ::waitFor([&] { return !message(type).isEmpty(); }, msecs);
    }

    QByteArray output()
    {
        QByteArray text;
        char buffer[4096];
        ssize_t n;
        while ((n = ::read(stdoutRead, buffer, sizeof buffer)) > 0) {
            text.append(buffer, n);
        }
        return text;
    }
};

// Sends StartSession without waiting for its answer (*reply); the session's
// error is set when the call could not even be made.
std::unique_ptr<StartedSession> sendStartSession(PrivateBus& bus, const QStringList& command, const QString& workspace,
                                                 QDBusPendingReply<QString>* reply, const char* net = "none")
{
    auto session = std::make_unique<StartedSession>();
    moat::RunRequest request;
    request.workspace = workspace.toStdString();
    request.net = net;
    for (const QString& word : command) {
        request.command.push_back(word.toStdString());
    }
    moat::SpecBuilder builder(bus.paths(), {{"PATH", "/usr/bin:/bin"}}, workspace.toStdString());
    auto spec = builder.build(request);
    if (!spec) {
        session->error = QString::fromStdString(spec.error().message());
        return session;
    }
    int out[2];
    int link[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) != 0) {
        session->error = QStringLiteral("pipe: %1").arg(errno);
        return session;
    }
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    session->stdoutRead = out[0];
    session->clientEnd = link[0];
    *reply = bus.manager().StartSession(QString::fromStdString(moat::specToJson(spec.value()).dump()),
                                        QDBusUnixFileDescriptor(devNull), QDBusUnixFileDescriptor(out[1]),
                                        QDBusUnixFileDescriptor(out[1]), QDBusUnixFileDescriptor(link[1]));
    ::close(devNull);
    ::close(out[1]);
    ::close(link[1]);
    return session;
}

void finishStartSession(StartedSession& session, QDBusPendingReply<QString>& reply)
{
    reply.waitForFinished();
    if (reply.isError()) {
        session.error = reply.error().name() + QStringLiteral(": ") + reply.error().message();
    } else {
        session.id = reply.value();
    }
}

std::unique_ptr<StartedSession> startSession(PrivateBus& bus, const QStringList& command, const QString& workspace,
                                             const char* net = "none")
{
    QDBusPendingReply<QString> reply;
    auto session = sendStartSession(bus, command, workspace, &reply, net);
    if (session->error.isEmpty()) {
        finishStartSession(*session, reply);
    }
    return session;
}

// A session that sleeps until stopped, its command line marked with
// `marker`; started when its error is empty.
std::unique_ptr<StartedSession> startSleeper(PrivateBus& bus, const QByteArray& marker, const QString& workspace)
{
    auto session = startSession(
        bus, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("sleep 600; : ") + QString::fromUtf8(marker)},
        workspace);
    if (session->error.isEmpty() && !session->waitFor(QStringLiteral("started"))) {
        session->error = QStringLiteral("the session did not start: ") + QString::fromUtf8(session->linkText);
    }
    return session;
}

// Sessions need a moat-supervisor that speaks the parent link (--parent-fd,
// protocol.md); empty when the built one does.
QString parentLinkMissing()
{
    QProcess help;
    help.start(QStringLiteral(MOAT_BUILD_DIR "/bin/moat-supervisor"), {QStringLiteral("--help")});
    help.waitForFinished(10000);
    return help.readAllStandardOutput().contains("--parent-fd")
               ? QString()
               : QStringLiteral(
                     "this build's moat-supervisor has no --parent-fd (the supervisor side of moatd's "
                     "parent link, core/session/parent_link) to be started by moatd");
}

#define MOAT_NEED_PARENT_LINK()                                          \
    if (const QString missing = parentLinkMissing(); !missing.isEmpty()) \
    QSKIP(qPrintable(missing))

QJsonArray listSessions(PrivateBus& bus, bool all)
{
    auto reply = bus.manager().ListSessions(all);
    reply.waitForFinished();
    return QJsonDocument::fromJson(reply.value().toUtf8()).array();
}

QString stateOf(PrivateBus& bus, const QString& id)
{
    for (const auto& entry : listSessions(bus, true)) {
        if (entry.toObject().value(QStringLiteral("id")).toString() == id) {
            return entry.toObject().value(QStringLiteral("state")).toString();
        }
    }
    return {};
}

}  // namespace

class MoatdService : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        for (const char* tool : {"dbus-daemon", "gnome-keyring-daemon", "dbus-send"}) {
            if (QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty()) {
                QSKIP(qPrintable(
                    QStringLiteral("%1 is not installed (Debian: dbus, gnome-keyring)").arg(QLatin1String(tool))));
            }
        }
        QVERIFY2(QFile::exists(QStringLiteral(MOAT_BUILD_DIR "/share/dbus-1/services/org.moat.Manager1.service")),
                 "the build tree has no activation file for moatd (packaging/CMakeLists.txt)");
        QVERIFY(workspace_.isValid());
    }

    void theOwnerIsServedAndMoatdIsActivated()
    {
        PrivateBus bus;
        QString error;
        QVERIFY2(bus.start(false, &error), qPrintable(error));
        QCOMPARE(bus.moatdPid(), 0);
        auto reply = bus.manager().ListSessions(true);
        reply.waitForFinished();
        QVERIFY2(!reply.isError(), qPrintable(reply.error().message()));
        QCOMPARE(reply.value(), QStringLiteral("[]"));
        QVERIFY(bus.moatdPid() > 0);  // activated by the first call
    }

    void anotherUidIsRefused()
    {
        if (::getuid() != 0) {
            QSKIP("needs root, to call as the test user moat-test");
        }
        QString error;
        const auto other = HostAccount::ensureTestUser(&error);
        QVERIFY2(other, qPrintable(error));
        PrivateBus bus;
        QVERIFY2(bus.start(false, &error), qPrintable(error));
        QVERIFY(!bus.manager().ListSessions(true).isError());  // moatd runs, as root

        // The same bus, the same method, from another account: a real
        // client (dbus-send) connected as moat-test.
        for (const QString& method : {QStringLiteral("ListSessions"), QStringLiteral("StopSession")}) {
            QProcess client;
            const QStringList argument = method == QLatin1String("ListSessions")
                                             ? QStringList{QStringLiteral("boolean:true")}
                                             : QStringList{QStringLiteral("string:x")};
            const QStringList argv = other->commandLine(
                QStringList{QStringLiteral("dbus-send"), QStringLiteral("--bus=") + bus.address(),
                            QStringLiteral("--print-reply"), QStringLiteral("--dest=org.moat.Manager1"),
                            QStringLiteral("/org/moat/Manager1"), QStringLiteral("org.moat.Manager1.") + method} +
                argument);
            client.start(argv.front(), argv.mid(1));
            QVERIFY(client.waitForFinished(20000));
            const QString said = QString::fromUtf8(client.readAllStandardError() + client.readAllStandardOutput());
            QVERIFY2(client.exitCode() != 0, qPrintable(said));
            QVERIFY2(said.contains(QStringLiteral("org.moat.Error.AccessDenied")), qPrintable(said));
            QVERIFY2(said.contains(QStringLiteral("serves only its owner")), qPrintable(said));
        }
    }

    void secretsGoInButNeverComeOut()
    {
        PrivateBus bus;
        QString error;
        QVERIFY2(bus.start(true, &error), qPrintable(error));
        const QString value = QStringLiteral("s3cr3t-value-%1").arg(::getpid());
        auto set = bus.manager().SetSecret(QStringLiteral("GITHUB_TOKEN"), value, {QStringLiteral("api.github.com")},
                                           {QStringLiteral("Authorization")});
        set.waitForFinished();
        QVERIFY2(!set.isError(), qPrintable(set.error().message()));

        auto listed = bus.manager().ListSecrets();
        listed.waitForFinished();
        const QJsonArray secrets = QJsonDocument::fromJson(listed.value().toUtf8()).array();
        QCOMPARE(secrets.size(), 1);
        QCOMPARE(secrets[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("GITHUB_TOKEN"));
        QCOMPARE(secrets[0].toObject().value(QStringLiteral("hosts")).toArray().first().toString(),
                 QStringLiteral("api.github.com"));
        QVERIFY(!listed.value().contains(value));
        // Nothing in moat's own files holds the value: it is in the keychain.
        for (const char* dir : {"config", "state"}) {
            QDirIterator files(bus.path(dir), QDir::Files, QDirIterator::Subdirectories);
            while (files.hasNext()) {
                const QString file = files.next();
                QVERIFY2(!readAll(file).contains(value.toUtf8()), qPrintable(file));
            }
        }

        auto bad = bus.manager().SetSecret(QStringLiteral("1BAD NAME"), value, {}, {});
        bad.waitForFinished();
        QCOMPARE(bad.error().name(), QStringLiteral("org.moat.Error.InvalidArgument"));
        // A value that would add a header of its own where it is swapped in.
        auto injecting = bus.manager().SetSecret(QStringLiteral("GITHUB_TOKEN"),
                                                 QStringLiteral("abc\r\nX-Injected: 1"), {QStringLiteral("api.github.com")}, {});
        injecting.waitForFinished();
        QCOMPARE(injecting.error().name(), QStringLiteral("org.moat.Error.InvalidArgument"));
        QVERIFY2(injecting.error().message().contains(QStringLiteral("control")), qPrintable(injecting.error().message()));

        auto removed = bus.manager().RemoveSecret(QStringLiteral("GITHUB_TOKEN"));
        removed.waitForFinished();
        QVERIFY2(!removed.isError(), qPrintable(removed.error().message()));
        listed = bus.manager().ListSecrets();
        listed.waitForFinished();
        QCOMPARE(listed.value(), QStringLiteral("[]"));
        auto again = bus.manager().RemoveSecret(QStringLiteral("GITHUB_TOKEN"));
        again.waitForFinished();
        QCOMPARE(again.error().name(), QStringLiteral("org.moat.Error.InvalidArgument"));
    }

    void secretsWithoutAKeychainSayHowToGetOne()
    {
        PrivateBus bus;
        QString error;
        QVERIFY2(bus.start(false, &error), qPrintable(error));
        auto set = bus.manager().SetSecret(QStringLiteral("TOKEN"), QStringLiteral("value"), {}, {});
        set.waitForFinished();
        QVERIFY(set.isError());
        QCOMPARE(set.error().name(), QStringLiteral("org.moat.Error.Keychain"));
        QVERIFY2(set.error().message().contains(QStringLiteral("gnome-keyring-daemon")),
                 qPrintable(set.error().message()));
        QVERIFY(!QFile::exists(bus.path("config") + QStringLiteral("/secrets.json")));
    }

    void aSessionRunsWithTheCallersPipes()
    {
        MOAT_NEED_PARENT_LINK();
        PrivateBus bus;
        QString error;
        QVERIFY2(bus.start(false, &error), qPrintable(error));
        QVERIFY(!bus.manager().ListSessions(true).isError());
        QSignalSpy started(&bus.manager(), &OrgMoatManager1Interface::SessionStarted);
        QSignalSpy appended(&bus.manager(), &OrgMoatManager1Interface::EventsAppended);
        auto session = startSession(bus, {QStringLiteral("echo"), QStringLiteral("hi")}, workspace_.path());
        QVERIFY2(session->error.isEmpty(), qPrintable(session->error));
        QVERIFY2(session->waitFor(QStringLiteral("ended")), session->linkText.constData());
        const QJsonObject ended = session->message(QStringLiteral("ended"));
        QCOMPARE(ended.value(QStringLiteral("session")).toString(), session->id);
        QCOMPARE(ended.value(QStringLiteral("state")).toString(), QStringLiteral("exited"));
        QCOMPARE(ended.value(QStringLiteral("exit_code")).toInt(-1), 0);
        QCOMPARE(session->message(QStringLiteral("started")).value(QStringLiteral("session")).toString(), session->id);
        QVERIFY(session->output().contains("hi\n"));
        QCOMPARE(stateOf(bus, session->id), QStringLiteral("exited"));

        // The bus heard of it, and the timeline reads back from moatd.
        QVERIFY(waitFor([&] { return !started.isEmpty() && !appended.isEmpty(); }, 5000));
        QCOMPARE(started.first().at(0).toString(), session->id);
        QCOMPARE(appended.first().at(0).toString(), session->id);
        auto timeline = bus.manager().ReadTimeline(session->id.left(6), 0, 0);
        timeline.waitForFinished();
        QVERIFY2(!timeline.isError(), qPrintable(timeline.error().message()));
        const QStringList lines = timeline.value().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.size() >= 2);
        QCOMPARE(QJsonDocument::fromJson(lines.first().toUtf8()).object().value(QStringLiteral("type")).toString(),
                 QStringLiteral("session.start"));
        auto later = bus.manager().ReadTimeline(session->id, 1, 1);
        later.waitForFinished();
        QCOMPARE(QJsonDocument::fromJson(later.value().toUtf8()).object().value(QStringLiteral("seq")).toInt(), 2);
    }

    void sessionsStartedAtOnceAllRun()
    {
        MOAT_NEED_PARENT_LINK();
        PrivateBus bus;
        QString error;
        QVERIFY2(bus.start(true, &error), qPrintable(error));
        // Every call is on the bus before the first is answered: the first
        // waits for the record keys from the keychain (a nested event loop
        // in which the others arrive) while the others queue behind it.
        constexpr int kSessions = 6;
        std::vector<std::unique_ptr<StartedSession>> sessions;
        std::vector<QDBusPendingReply<QString>> replies(kSessions);
        for (int i = 0; i < kSessions; ++i) {
            sessions.push_back(sendStartSession(
                bus, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("sleep 0.5; exit %1").arg(i)},
                workspace_.path(), &replies[static_cast<size_t>(i)]));
            QVERIFY2(sessions.back()->error.isEmpty(), qPrintable(sessions.back()->error));
        }
        QSet<QString> ids;
        for (int i = 0; i < kSessions; ++i) {
            StartedSession& session = *sessions[static_cast<size_t>(i)];
            finishStartSession(session, replies[static_cast<size_t>(i)]);
            QVERIFY2(session.error.isEmpty(), qPrintable(session.error));
            ids.insert(session.id);
        }
        QCOMPARE(ids.size(), kSessions);
        for (int i = 0; i < kSessions; ++i) {
            StartedSession& session = *sessions[static_cast<size_t>(i)];
            QVERIFY2(session.waitFor(QStringLiteral("ended")), session.linkText.constData());
            QCOMPARE(session.message(QStringLiteral("ended")).value(QStringLiteral("exit_code")).toInt(-1), i);
        }
        QVERIFY(bus.moatdPid() > 0);  // still the same, still there
    }

    void anAnswerNamesItsApproverAndStartsTheSuccessor()
    {
        MOAT_NEED_PARENT_LINK();
        PrivateBus bus;
        QString error;
        QVERIFY2(bus.start(false, &error), qPrintable(error));
        QVERIFY(!bus.manager().ListSessions(true).isError());
        QSignalSpy requested(&bus.manager(), &OrgMoatManager1Interface::ApprovalRequested);
        QSignalSpy decided(&bus.manager(), &OrgMoatManager1Interface::ApprovalDecided);
        // The agent asks for sudo (the default policy asks a person) and a
        // command for its successor, which reports its uid.
        auto session = startSession(
            bus,
            {QStringLiteral("sh"), QStringLiteral("-c"),
             QStringLiteral(
                 "curl -s -X POST -d '{\"sudo\":true,\"reason\":\"apt needs root\",\"command\":[\"id\",\"-u\"]}' "
                 "\"$MOAT_API/v1/requests\"; echo")},
            workspace_.path(), "proxy");
        QVERIFY2(session->error.isEmpty(), qPrintable(session->error));
        QVERIFY2(waitFor([&] { return !requested.isEmpty(); }, kStartMs), session->linkText.constData());
        const QString rid = requested.first().at(0).toString();
        const QJsonObject shown = QJsonDocument::fromJson(requested.first().at(1).toString().toUtf8()).object();
        QCOMPARE(shown.value(QStringLiteral("session")).toString(), session->id);
        QCOMPARE(shown.value(QStringLiteral("reason")).toString(), QStringLiteral("apt needs root"));
        QVERIFY(shown.value(QStringLiteral("flags")).toArray().contains(QStringLiteral("--sudo")));

        auto listed = bus.manager().ListApprovals();
        listed.waitForFinished();
        QVERIFY(listed.value().contains(rid));
        auto wrongClient = bus.manager().AnswerApproval(rid, true, QStringLiteral("me"));
        wrongClient.waitForFinished();
        QCOMPARE(wrongClient.error().name(), QStringLiteral("org.moat.Error.InvalidArgument"));
        auto answer = bus.manager().AnswerApproval(rid, true, QStringLiteral("gui"));
        answer.waitForFinished();
        QVERIFY2(!answer.isError(), qPrintable(answer.error().message()));
        const QJsonObject decision = QJsonDocument::fromJson(answer.value().toUtf8()).object();
        QCOMPARE(decision.value(QStringLiteral("decision")).toString(), QStringLiteral("approved"));
        QVERIFY(decision.value(QStringLiteral("successor")).toBool());
        const QJsonObject by = decision.value(QStringLiteral("by")).toObject();
        QCOMPARE(by.value(QStringLiteral("uid")).toInteger(-1), qint64(::getuid()));
        QCOMPARE(by.value(QStringLiteral("user")).toString(), HostAccount::invoker().name());
        QCOMPARE(by.value(QStringLiteral("client")).toString(), QStringLiteral("gui"));
        QVERIFY(QDateTime::fromString(by.value(QStringLiteral("time")).toString(), Qt::ISODate).isValid());
        QVERIFY(waitFor([&] { return !decided.isEmpty(); }, 5000));
        QCOMPARE(decided.first().at(0).toString(), rid);
        auto again = bus.manager().AnswerApproval(rid, false, QStringLiteral("cli"));
        again.waitForFinished();
        QCOMPARE(again.error().name(), QStringLiteral("org.moat.Error.NoSuchRequest"));

        // The successor follows on the same link and pipes, as root in its
        // own namespace, linked to its parent and the request.
        QVERIFY2(session->waitFor(QStringLiteral("ended")), session->linkText.constData());
        const QJsonObject successor = session->message(QStringLiteral("successor"));
        QCOMPARE(successor.value(QStringLiteral("parent")).toString(), session->id);
        QCOMPARE(successor.value(QStringLiteral("request")).toString(), rid);
        const QString next = successor.value(QStringLiteral("session")).toString();
        QCOMPARE(session->message(QStringLiteral("ended")).value(QStringLiteral("session")).toString(), next);
        const QByteArray output = session->output();
        QVERIFY2(output.contains("\"decision\":\"approved\""), output.constData());
        QVERIFY2(output.endsWith("0\n"), output.constData());
        const QJsonObject spec = QJsonDocument::fromJson(readAll(bus.path("state") + QStringLiteral("/sessions/") +
                                                                 next + QStringLiteral("/spec.json")))
                                     .object();
        QCOMPARE(spec.value(QStringLiteral("parent")).toString(), session->id);
        QCOMPARE(spec.value(QStringLiteral("request")).toString(), rid);
        QVERIFY(spec.value(QStringLiteral("sudo")).toBool());
        // The parent's record names the approver.
        const QByteArray events =
            readAll(bus.path("state") + QStringLiteral("/sessions/") + session->id + QStringLiteral("/events.jsonl"));
        QVERIFY2(events.contains("approval.decision"), events.constData());
        QVERIFY2(events.contains("\"client\":\"gui\""), events.constData());
    }

    void aBrokenPolicyDeniesEveryRequest()
    {
        MOAT_NEED_PARENT_LINK();
        PrivateBus bus;
        QString error;
        QVERIFY2(bus.start(false, &error), qPrintable(error));
        QFile policy(bus.path("config") + QStringLiteral("/policy.toml"));
        QVERIFY(policy.open(QIODevice::WriteOnly));
        policy.write("sudo = \"auto\"\n[allow_host\n");  // auto for sudo, then a syntax error
        policy.close();
        auto session =
            startSession(bus,
                         {QStringLiteral("sh"), QStringLiteral("-c"),
                          QStringLiteral("curl -s -X POST -d '{\"sudo\":true}' \"$MOAT_API/v1/requests\"; echo")},
                         workspace_.path(), "proxy");
        QVERIFY2(session->error.isEmpty(), qPrintable(session->error));
        QVERIFY2(session->waitFor(QStringLiteral("ended")), session->linkText.constData());
        QVERIFY(session->message(QStringLiteral("successor")).isEmpty());
        const QByteArray output = session->output();
        QVERIFY2(output.contains("\"decision\":\"denied\""), output.constData());
        QVERIFY2(output.contains("policy.toml:2"), output.constData());
    }

    void aKilledSupervisorFailsItsSession()
    {
        MOAT_NEED_PARENT_LINK();
        PrivateBus bus;
        QString error;
        QVERIFY2(bus.start(false, &error), qPrintable(error));
        const QByteArray marker = "moatd-kill-" + QByteArray::number(::getpid());
        QVERIFY(!bus.manager().ListSessions(true).isError());
        QSignalSpy ended(&bus.manager(), &OrgMoatManager1Interface::SessionEnded);
        auto session = startSleeper(bus, marker, workspace_.path());
        QVERIFY2(session->error.isEmpty(), qPrintable(session->error));
        QVERIFY(waitFor([&] { return !processesWith(marker).isEmpty(); }, 10000));

        const QJsonObject status = QJsonDocument::fromJson(readAll(bus.path("state") + QStringLiteral("/sessions/") +
                                                                   session->id + QStringLiteral("/status.json")))
                                       .object();
        const auto supervisor = static_cast<pid_t>(status.value(QStringLiteral("supervisor_pid")).toInt());
        QVERIFY(supervisor > 0);
        QCOMPARE(::kill(supervisor, SIGKILL), 0);

        QVERIFY2(session->waitFor(QStringLiteral("ended")), session->linkText.constData());
        QCOMPARE(session->message(QStringLiteral("ended")).value(QStringLiteral("state")).toString(),
                 QStringLiteral("failed"));
        QVERIFY(waitFor([&] { return !ended.isEmpty(); }, 5000));
        QCOMPARE(ended.first().at(0).toString(), session->id);
        QCOMPARE(ended.first().at(1).toString(), QStringLiteral("failed"));
        QCOMPARE(stateOf(bus, session->id), QStringLiteral("failed"));
        QVERIFY2(waitFor([&] { return processesWith(marker).isEmpty(); }, 10000),
                 "the sandbox outlived its supervisor");
    }

    void aRestartedMoatdReattaches()
    {
        MOAT_NEED_PARENT_LINK();
        PrivateBus bus;
        QString error;
        QVERIFY2(bus.start(false, &error), qPrintable(error));
        const QByteArray marker = "moatd-restart-" + QByteArray::number(::getpid());
        auto session = startSleeper(bus, marker, workspace_.path());
        QVERIFY2(session->error.isEmpty(), qPrintable(session->error));

        const pid_t first = bus.moatdPid();
        QVERIFY(first > 0);
        QCOMPARE(::kill(first, SIGKILL), 0);
        QVERIFY(waitFor([&] { return bus.moatdPid() != first; }, 10000));
        QVERIFY2(!processesWith(marker).isEmpty(), "the session died with moatd");

        // The next call activates a new moatd, which finds the session.
        QCOMPARE(stateOf(bus, session->id), QStringLiteral("running"));
        QVERIFY(bus.moatdPid() > 0 && bus.moatdPid() != first);
        bool listed = false;
        for (const auto& entry : listSessions(bus, false)) {
            listed = listed || entry.toObject().value(QStringLiteral("id")).toString() == session->id;
        }
        QVERIFY(listed);

        auto renewed = bus.manager().RenewSession(session->id, QStringLiteral("30m"));
        renewed.waitForFinished();
        QVERIFY2(!renewed.isError(), qPrintable(renewed.error().message()));
        const QDateTime expires = QDateTime::fromString(renewed.value(), Qt::ISODate);
        QVERIFY2(expires.isValid(), qPrintable(renewed.value()));
        QVERIFY(qAbs(QDateTime::currentDateTimeUtc().secsTo(expires) - 1800) < 60);

        auto stop = bus.manager().StopSession(session->id.left(8));
        stop.waitForFinished();
        QVERIFY2(!stop.isError(), qPrintable(stop.error().message()));
        QVERIFY(waitFor([&] { return stateOf(bus, session->id) != QLatin1String("running"); }, 20000));
        QCOMPARE(stateOf(bus, session->id), QStringLiteral("stopped"));
        QVERIFY2(waitFor([&] { return processesWith(marker).isEmpty(); }, 10000), "the stopped sandbox still runs");
    }

private:
    QTemporaryDir workspace_{QStringLiteral("/tmp/moat-it-moatd-ws-XXXXXX")};
};

QTEST_GUILESS_MAIN(MoatdService)
#include "tst_moatd_service.moc"
