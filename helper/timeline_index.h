// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

#include <sys/types.h>

#include <vector>

namespace moat::helper {

// ReadTimeline's pages of a session's events.jsonl without reading the file
// from its start for every page: per file, every kStride-th line's seq and
// offset, learnt while pages are read, so that a page after seq S starts at
// most kStride lines before it. With a million events the app reads the
// whole log in pages of 10,000; from the start each time that was 100 scans
// of up to the whole file.
//
// The index trusts nothing it cannot check again: it belongs to one file
// (device, inode), is dropped when the file is another or shorter than what
// was indexed, and a seq is taken only from a complete line (ending in a
// newline) that EventLine::scan reads, as before.
class TimelineIndex
{
public:
    static constexpr uint kStride = 1024;

    struct Page {
        QByteArray lines;  // complete lines with seq > afterSeq, in file order
        uint count = 0;
        quint64 scannedLines = 0;  // lines read to find them (for tests)
        bool opened = false;
    };

    // At most maxEvents lines and about maxBytes (a page stops before the
    // line that would go over, but holds at least one).
    Page read(const QString& path, quint64 afterSeq, uint maxEvents, qsizetype maxBytes);

    // Files indexed at once; the least recently read is dropped beyond.
    static constexpr int kMaxFiles = 64;

private:
    struct Mark {
        quint64 seq;
        qint64 offset;
    };
    struct FileIndex {
        dev_t device = 0;
        ino_t inode = 0;
        std::vector<Mark> marks;  // seq increasing
        qint64 indexedTo = 0;     // lines before this offset are in `marks` (every kStride-th)
        quint64 lastUse = 0;
    };
    void evict();

    QHash<QString, FileIndex> files_;
    quint64 clock_ = 0;
};

}  // namespace moat::helper
