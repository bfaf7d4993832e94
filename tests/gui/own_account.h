// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "integrationfixture.h"
#include "moatdbus.h"

#include <QProcessEnvironment>
#include <QString>

#include <unistd.h>

// A window test drives its windows in this process, and moatd answers only
// the uid that owns its bus: the account a window test can play is this
// process's own (root when run as root; the ordinary test account in the
// copy rerunAsOrdinaryAccount() starts).

// The runner of this process's own account, or nullptr when the fixture has
// none.
inline AccountRunner* ownAccountRunner(const IntegrationFixture& fixture)
{
    return IntegrationFixture::runningAsRoot() ? fixture.root() : fixture.user();
}

// Why a window test's row for `runner` cannot run in this process; empty
// when it can.
inline QString whyWindowsCannotRunAs(AccountRunner* runner)
{
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) {
        return missing;
    }
    if (runner->account().uid() != ::getuid()) {
        return QStringLiteral("moatd answers only its own uid and the windows run in the test process: a copy of "
                              "this program runs this row as that account (rerunAsOrdinaryAccount)");
    }
    return {};
}

// Points this process at the runner's bus and directories, as a desktop
// session's environment would (the app finds moat's config, the keychain
// and moatd from there).
inline void useEnvironmentOf(AccountRunner* runner, const MoatdBus& bus)
{
    const QProcessEnvironment environment = runner->environment(bus.environment());
    for (const QString& key : environment.keys()) {
        qputenv(key.toUtf8().constData(), environment.value(key).toUtf8());
    }
}
