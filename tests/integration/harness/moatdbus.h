// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "backgroundprocess.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>

#include <sys/types.h>

#include <memory>

class AccountRunner;

// A private session bus for one account, as a desktop session has: a real
// dbus-daemon whose <servicedir> holds moatd's activation file (the build
// tree's, with Exec pointed at the private install's moatd), and an
// unlocked gnome-keyring on it (ENVIRONMENT.md, "A real keychain in
// tests"). moatd is started by D-Bus activation on the first call, with the
// bus's environment: the runner's MOAT_STATE_DIR and MOAT_CONFIG_DIR, and a
// private XDG_RUNTIME_DIR. Everything ends with the object.
class MoatdBus
{
public:
    explicit MoatdBus(AccountRunner* runner) : runner_(runner) {}
    ~MoatdBus();
    MoatdBus(const MoatdBus&) = delete;
    MoatdBus& operator=(const MoatdBus&) = delete;

    // Why the bus cannot run here (a tool or moatd missing); empty when it can.
    static QString missingPieces();

    // OwnerOnly: the bus of one account, as a desktop session's is.
    // AnyUser: a second socket any account may connect to, and a policy that
    // lets it call moatd, so that moatd's own check of the caller's uid is
    // what refuses another account (openAddress()).
    enum class Access { OwnerOnly, AnyUser };
    bool start(QString* error, Access access = Access::OwnerOnly);
    // Before start(): a bus on which moatd cannot be activated (moat works
    // without it there), or one with no keyring (no Secret Service).
    void setMoatdActivatable(bool activatable) { moatdActivatable_ = activatable; }
    void setKeyring(bool keyring) { keyring_ = keyring; }
    // With Access::AnyUser: the address other accounts connect to.
    QString openAddress() const { return openAddress_; }

    // DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR, for RunOptions::environment.
    QMap<QString, QString> environment() const;
    // "export A=... B=...; " for shell scripts run with AccountRunner::startHost.
    QString exports() const;
    QString address() const { return address_; }
    QString runtimeDir() const { return runtime_; }
    // The moatd serving this bus, or 0 when none runs.
    pid_t moatdPid() const;
    // SIGKILLs moatd and waits until it is gone (the next call activates another).
    bool killMoatd();
    // The private install's moatd (the program activation starts).
    QString moatdProgram() const;

    // `moat run OPTIONS -- sh -c SCRIPT` as the runner's account in the
    // background, attached to this bus (or to none, for a runner without a
    // bus: pass withBus false); its output ends with "EXIT=<moat's status>".
    std::unique_ptr<BackgroundProcess> startSession(const QStringList& options, const QString& script,
                                                    bool withBus = true) const;
    // The entry of `moat ps --all --json` for the newest session named `name`.
    QJsonObject session(const QString& name, bool withBus = true) const;
    bool waitForState(const QString& name, const QString& state, int msecs = 20000) const;

    // Polls `condition` every 50 ms until it holds or `msecs` pass.
    static bool waitUntil(const std::function<bool()>& condition, int msecs);

private:
    AccountRunner* runner_ = nullptr;
    std::unique_ptr<BackgroundProcess> bus_;
    QString address_;
    QString openAddress_;
    QString runtime_;
    bool moatdActivatable_ = true;
    bool keyring_ = true;
};
