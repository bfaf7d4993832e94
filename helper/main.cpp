// SPDX-License-Identifier: Apache-2.0
// moatd: the user's moat helper on the D-Bus session bus (org.moat.Manager1
// at /org/moat/Manager1). Started by D-Bus activation or the systemd user
// unit moatd.service; see docs/moatd.md.

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusError>
#include <QDBusUnixFileDescriptor>
#include <QSocketNotifier>
#include <cstdio>
#include <cstring>

#include "base/moat_paths.h"
#include "manager_adaptor.h"
#include "manager_service.h"

namespace {

const QString kBusName = QStringLiteral("org.moat.Manager1");
const QString kObjectPath = QStringLiteral("/org/moat/Manager1");

// SIGTERM and SIGINT end moatd cleanly; the supervisors it started keep
// running and the next moatd re-attaches to them.
void quitOnTermination(QCoreApplication& app)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    const int fd = ::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    if (fd < 0) {
        return;
    }
    auto* notifier = new QSocketNotifier(fd, QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [fd] {
        signalfd_siginfo info{};
        (void)::read(fd, &info, sizeof info);
        qInfo("moatd: stopping (signal %u); running sessions keep running", info.ssi_signo);
        QCoreApplication::quit();
    });
}

}  // namespace

int main(int argc, char** argv)
{
    // Signals blocked before Qt starts its threads, so that only the
    // signalfd sees them.
    ::signal(SIGPIPE, SIG_IGN);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("moatd"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MOAT_VERSION));
    quitOnTermination(app);
    const QStringList args = QCoreApplication::arguments();
    if (args.contains(QStringLiteral("--version"))) {
        std::printf("moatd %s\n", MOAT_VERSION);
        return 0;
    }
    if (args.size() > 1) {
        std::fprintf(stderr,
                     "moatd: takes no arguments (it is started by D-Bus activation or `systemctl --user start "
                     "moatd`; see docs/moatd.md)\n");
        return 1;
    }

    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        std::fprintf(stderr,
                     "moatd: cannot connect to the D-Bus session bus: %s. moatd serves one user on that user's "
                     "session bus: run it inside a desktop or login session (DBUS_SESSION_BUS_ADDRESS set), or "
                     "start one with `dbus-run-session -- moatd`\n",
                     qPrintable(bus.lastError().message()));
        return 1;
    }

    moat::helper::ManagerService service(moat::MoatPaths::fromEnvironment());
    // Sessions a previous moatd left running are known before the first call.
    service.reattach();
    new ManagerAdaptor(&service);
    // Without this, methods taking fds (StartSession) vanish from
    // introspection on Qt 6.4 (ENVIRONMENT.md).
    qRegisterMetaType<QDBusUnixFileDescriptor>();
    if (!bus.registerObject(kObjectPath, &service)) {
        std::fprintf(stderr, "moatd: cannot register %s on the session bus: %s\n", qPrintable(kObjectPath),
                     qPrintable(bus.lastError().message()));
        return 1;
    }
    if (!bus.registerService(kBusName)) {
        const auto owner = bus.interface()->serviceOwner(kBusName);
        const auto pid = owner.isValid() ? bus.interface()->servicePid(owner.value()) : QDBusReply<uint>();
        std::fprintf(stderr,
                     "moatd: %s is already taken on this session bus%s: another moatd serves this user. Stop it "
                     "first (systemctl --user stop moatd) or use the one that runs\n",
                     qPrintable(kBusName),
                     pid.isValid() ? qPrintable(QStringLiteral(" (by pid %1)").arg(pid.value())) : "");
        return 1;
    }
    qInfo("moatd: serving %s on the session bus", qPrintable(kBusName));
    return app.exec();
}
