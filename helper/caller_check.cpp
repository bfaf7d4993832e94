// SPDX-License-Identifier: Apache-2.0
#include "caller_check.h"

#include <pwd.h>
#include <unistd.h>

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QFile>

#include "dbus_errors.h"

namespace moat::helper {

namespace {

// The program behind the caller's connection, by its pid's /proc comm. The
// pid comes from the bus too, but a pid can be reused and a program named
// anything: this is a label in records ("which client"), never a credential.
QString clientLabel(const QDBusContext& context)
{
    const auto pid = context.connection().interface()->servicePid(context.message().service());
    if (!pid.isValid()) {
        return QStringLiteral("unknown");
    }
    QFile comm(QStringLiteral("/proc/%1/comm").arg(pid.value()));
    if (!comm.open(QIODevice::ReadOnly)) {
        return QStringLiteral("unknown");
    }
    const QString name = QString::fromUtf8(comm.read(64)).trimmed();
    if (name == QLatin1String("moat")) {
        return QStringLiteral("cli");
    }
    if (name == QLatin1String("moat-manager")) {
        return QStringLiteral("gui");
    }
    return name.isEmpty() ? QStringLiteral("unknown") : name;
}

}  // namespace

QString userName(uid_t uid)
{
    passwd entry{};
    passwd* found = nullptr;
    char buffer[4096];
    if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found) {
        return QString::fromLocal8Bit(found->pw_name);
    }
    return QString::number(uid);
}

std::optional<Caller> checkCaller(const QDBusContext& context)
{
    const uid_t own = ::getuid();
    // A peer-to-peer connection has no bus daemon to vouch for the caller:
    // moatd is only ever served on a bus.
    const auto* bus = context.connection().interface();
    const auto uid = bus ? bus->serviceUid(context.message().service()) : QDBusReply<uint>();
    if (!uid.isValid()) {
        context.sendErrorReply(kErrorAccessDenied,
                               QStringLiteral("moatd could not learn which user is calling (%1); it answers only "
                                              "its own user's programs")
                                   .arg(uid.error().message()));
        return std::nullopt;
    }
    if (uid.value() != own) {
        context.sendErrorReply(
            kErrorAccessDenied,
            QStringLiteral("moatd serves only its owner, %1 (uid %2); this call came from uid %3 (%4). Each user "
                           "runs their own moatd on their own session bus: run moat as %1, or start moatd as %4")
                .arg(userName(own))
                .arg(own)
                .arg(uid.value())
                .arg(userName(uid.value())));
        return std::nullopt;
    }
    return Caller{own, userName(own), clientLabel(context)};
}

}  // namespace moat::helper
