// SPDX-License-Identifier: Apache-2.0
#include "session_records.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace moat::helper {

namespace {

// spec.json and status.json are small; anything larger is not moat's.
constexpr qint64 kMaxRecordFile = 1 << 20;

QJsonObject readObject(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxRecordFile) {
        return {};
    }
    return QJsonDocument::fromJson(file.read(kMaxRecordFile)).object();
}

bool isSessionId(const QString& id)
{
    if (id.size() != 16) {
        return false;
    }
    for (QChar c : id) {
        if (!((c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('a') && c <= QLatin1Char('f')))) {
            return false;
        }
    }
    return true;
}

QJsonArray flagsOf(const QJsonObject& spec)
{
    QJsonArray flags;
    if (spec.value(QStringLiteral("yolo")).toBool()) {
        flags.append(QStringLiteral("yolo"));
    }
    if (spec.value(QStringLiteral("sudo")).toBool()) {
        flags.append(QStringLiteral("sudo"));
    }
    if (spec.value(QStringLiteral("docker")).toBool()) {
        flags.append(QStringLiteral("docker"));
    }
    flags.append(QStringLiteral("net:") + spec.value(QStringLiteral("net")).toString(QStringLiteral("proxy")));
    for (const auto& host : spec.value(QStringLiteral("allow_hosts")).toArray()) {
        flags.append(QStringLiteral("allow-host:") + host.toString());
    }
    return flags;
}

QString imageOf(const QJsonObject& spec)
{
    const QJsonObject image = spec.value(QStringLiteral("image")).toObject();
    return image.value(QStringLiteral("kind")).toString() == QLatin1String("rootfs")
               ? image.value(QStringLiteral("path")).toString()
               : QStringLiteral("host");
}

}  // namespace

QString SessionRecords::directory(const QString& id) const
{
    return QString::fromStdString(paths_.sessionDir(id.toStdString()));
}

QJsonObject SessionRecords::status(const QString& id) const
{
    return readObject(directory(id) + QStringLiteral("/status.json"));
}

QJsonObject SessionRecords::spec(const QString& id) const
{
    return readObject(directory(id) + QStringLiteral("/spec.json"));
}

QStringList SessionRecords::sessionIds() const
{
    QStringList ids;
    const QDir sessions(QString::fromStdString(paths_.stateDir) + QStringLiteral("/sessions"));
    for (const QString& entry : sessions.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (isSessionId(entry)) {
            ids.append(entry);
        }
    }
    return ids;
}

bool SessionRecords::writeStatus(const QString& id, const QJsonObject& status) const
{
    // Atomic like the supervisor's own writes: a reader never sees half.
    QSaveFile file(directory(id) + QStringLiteral("/status.json"));
    if (!file.open(QIODevice::WriteOnly)) {
        return false;
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(QJsonDocument(status).toJson(QJsonDocument::Indented));
    return file.commit();
}

SessionRecords::End SessionRecords::settleAfterDeath(const QString& id, const QString& why) const
{
    QJsonObject current = status(id);
    const QString state = current.value(QStringLiteral("state")).toString();
    if (!state.isEmpty() && state != QLatin1String("running") && state != QLatin1String("starting")) {
        return {state, current.value(QStringLiteral("exit_code")).toInt(125)};
    }
    current.insert(QStringLiteral("state"), QStringLiteral("failed"));
    current.insert(QStringLiteral("exit_code"), 125);
    current.insert(QStringLiteral("error"), why);
    current.insert(QStringLiteral("ended"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    current.remove(QStringLiteral("supervisor_pid"));
    if (QFileInfo::exists(directory(id)) && !writeStatus(id, current)) {
        qWarning("moatd: cannot mark session %s failed in its status.json", qPrintable(id));
    }
    return {QStringLiteral("failed"), 125};
}

QJsonObject SessionRecords::psEntry(const QString& id) const
{
    const QJsonObject spec = this->spec(id);
    const QJsonObject status = this->status(id);
    QString state = status.value(QStringLiteral("state")).toString(QStringLiteral("starting"));
    if (state == QLatin1String("running") &&
        !supervisorAlive(static_cast<pid_t>(status.value(QStringLiteral("supervisor_pid")).toInt()))) {
        state = QStringLiteral("failed");  // its supervisor is gone; nothing runs it any more
    }
    QJsonObject entry{
        {QStringLiteral("id"), id},
        {QStringLiteral("name"), spec.value(QStringLiteral("name"))},
        {QStringLiteral("state"), state},
        {QStringLiteral("image"), imageOf(spec)},
        {QStringLiteral("flags"), flagsOf(spec)},
        {QStringLiteral("started"), status.value(QStringLiteral("started"))},
        {QStringLiteral("expires"), status.value(QStringLiteral("expires"))},
        {QStringLiteral("exit_code"),
         status.contains(QStringLiteral("exit_code")) ? status.value(QStringLiteral("exit_code")) : QJsonValue()},
    };
    for (const char* key : {"parent", "request"}) {
        const QString value = spec.value(QLatin1String(key)).toString();
        if (!value.isEmpty()) {
            entry.insert(QLatin1String(key), value);
        }
    }
    return entry;
}

bool SessionRecords::supervisorAlive(pid_t pid)
{
    if (pid <= 0) {
        return false;
    }
    const QString exe = QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid));
    if (!exe.isEmpty()) {
        return exe.endsWith(QLatin1String("/moat-supervisor"));
    }
    // exe is unreadable for a process that is not dumpable: its name then.
    QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
    return comm.open(QIODevice::ReadOnly) && comm.read(64).trimmed() == "moat-supervisor";
}

}  // namespace moat::helper
