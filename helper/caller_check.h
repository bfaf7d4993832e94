// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/types.h>

#include <QDBusContext>
#include <QString>
#include <optional>

namespace moat::helper {

// Who called a method of moatd, as the bus daemon says: the uid of the
// caller's connection (GetConnectionUnixUser), never a pid or anything the
// caller claims about itself. Only the uid that owns moatd may call it.
struct Caller {
    uid_t uid = 0;
    QString user;    // that uid's login name, for approval records
    QString client;  // "cli", "gui" or the caller's program name: a label only (see callerOf)
};

// The caller of the D-Bus call `context` is serving, when it is moatd's own
// uid. Otherwise replies org.moat.Error.AccessDenied (with who may call and
// why) and returns nullopt: the method must then return at once.
std::optional<Caller> checkCaller(const QDBusContext& context);

// The login name of `uid`, or the number when it has none.
QString userName(uid_t uid);

}  // namespace moat::helper
