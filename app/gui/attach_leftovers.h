// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/unique_fd.h"

#include <QString>

namespace moat::gui {

// The directories "Open in terminal" makes (moat-attach-XXXXXX, a socket in
// each, TerminalRelay) are removed by the application when the session ends
// or it quits. One that crashed cannot; the next one to listen removes
// what a crashed application left.
//
// Each live directory holds an "owner.lock" that its application keeps an
// exclusive flock(2) on for as long as it listens. The kernel lets the lock
// go when the process dies, however it dies: a lock that can be taken marks
// a leftover. A directory without a lock file (being made right now, or not
// ours) is left alone.

// Creates <directory>/owner.lock (0600) and locks it; an invalid fd when
// that fails (errno set). Keep the fd open while the directory is in use.
UniqueFd holdAttachDirectory(const QString& directory);

// Removes the leftovers in base: directories named moat-attach-*, owned by
// this uid, whose owner.lock nobody holds (their socket, lock and the
// directory). Returns how many were removed.
int removeAttachLeftovers(const QString& base);

// The lock file's path in a directory.
QString attachLockPath(const QString& directory);

}  // namespace moat::gui
