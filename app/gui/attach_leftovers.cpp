// SPDX-License-Identifier: Apache-2.0
#include "attach_leftovers.h"

#include <QDir>
#include <QFile>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace moat::gui {

QString attachLockPath(const QString& directory)
{
    return directory + QStringLiteral("/owner.lock");
}

UniqueFd holdAttachDirectory(const QString& directory)
{
    UniqueFd lock(::open(QFile::encodeName(attachLockPath(directory)).constData(),
                         O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (lock.get() < 0 || ::flock(lock.get(), LOCK_EX | LOCK_NB) != 0) {
        return UniqueFd();
    }
    return lock;
}

int removeAttachLeftovers(const QString& base)
{
    int removed = 0;
    const QStringList names =
        QDir(base).entryList({QStringLiteral("moat-attach-*")}, QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden);
    for (const QString& name : names) {
        const QString directory = base + QLatin1Char('/') + name;
        const QByteArray path = QFile::encodeName(directory);
        struct stat status {};
        // Only a real directory of ours: never follow a link someone left
        // there, never touch another account's files.
        if (::lstat(path.constData(), &status) != 0 || !S_ISDIR(status.st_mode) || status.st_uid != ::getuid()) {
            continue;
        }
        UniqueFd lock(::open(QFile::encodeName(attachLockPath(directory)).constData(),
                             O_RDWR | O_CLOEXEC | O_NOFOLLOW));
        if (lock.get() < 0 || ::flock(lock.get(), LOCK_EX | LOCK_NB) != 0) {
            continue;  // no lock file, or its application is alive
        }
        ::unlink(QFile::encodeName(directory + QStringLiteral("/socket")).constData());
        ::unlink(QFile::encodeName(attachLockPath(directory)).constData());
        if (::rmdir(path.constData()) == 0) {
            ++removed;
        }
    }
    return removed;
}

}  // namespace moat::gui
