// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace moat {

// Keeps an append-only file on disk without making each append wait for it.
//
// An fdatasync of an appended line took from 0.07 ms to 4 ms on the
// development machine, depending on what else used the disk
// (docs/performance.md), so syncing each line would cap a log at between a
// few hundred and 14,000 lines a second, below the 50,000 a busy session
// may need. Instead one thread syncs whenever
// lines were written since its last sync: while lines keep coming there is
// always one fdatasync in flight, and after a power loss the file keeps every
// line up to the last completed one (the lines of the last few milliseconds
// may be lost). A crash of the process loses nothing that write() returned
// for. syncNow() is for the moments that must be on disk before moat goes on.
//
// The fd stays owned by the caller and must outlive this object.
class LogSyncer {
public:
    explicit LogSyncer(int fd);
    ~LogSyncer();  // syncs what is left unsynced, then stops the thread
    LogSyncer(const LogSyncer&) = delete;
    LogSyncer& operator=(const LogSyncer&) = delete;

    // Something was written: sync it soon. Never blocks on the disk.
    void written();
    // Syncs now, on the caller's thread, and reports any earlier failure.
    Status syncNow();
    // The first failure of a background sync, if any (e.g. EIO).
    Status failure() const;

private:
    void run();

    const int fd_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool pending_ = false;
    bool stopping_ = false;
    int error_ = 0;
    std::thread thread_;
};

}  // namespace moat
