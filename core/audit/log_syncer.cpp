// SPDX-License-Identifier: Apache-2.0
#include "audit/log_syncer.h"

#include <unistd.h>

#include <cerrno>

namespace moat {

LogSyncer::LogSyncer(int fd) : fd_(fd), thread_([this] { run(); }) {}

LogSyncer::~LogSyncer()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void LogSyncer::written()
{
    {
        std::lock_guard lock(mutex_);
        if (pending_) {
            return;  // the thread will pick this up with what is pending
        }
        pending_ = true;
    }
    wake_.notify_one();
}

Status LogSyncer::syncNow()
{
    {
        // This sync covers everything written so far.
        std::lock_guard lock(mutex_);
        pending_ = false;
    }
    if (::fdatasync(fd_) != 0) {
        const int err = errno;
        std::lock_guard lock(mutex_);
        if (error_ == 0) {
            error_ = err;
        }
    }
    return failure();
}

Status LogSyncer::failure() const
{
    std::lock_guard lock(mutex_);
    if (error_ != 0) {
        return Error::fromErrno("cannot sync the event log to disk", error_,
                                "Lines written since the last sync may be lost after a power failure");
    }
    return {};
}

void LogSyncer::run()
{
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return pending_ || stopping_; });
        if (stopping_ && !pending_) {
            return;  // nothing written since the last sync (seal() syncs last)
        }
        const bool last = stopping_;
        pending_ = false;
        lock.unlock();
        // Lines written while this runs set pending_ again: the next round
        // covers them.
        const int result = ::fdatasync(fd_);
        const int err = result == 0 ? 0 : errno;
        lock.lock();
        if (err != 0 && error_ == 0) {
            error_ = err;
        }
        if (last) {
            return;
        }
    }
}

}  // namespace moat
