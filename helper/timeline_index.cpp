// SPDX-License-Identifier: Apache-2.0
#include "timeline_index.h"

#include "audit/event_line.h"

#include <QFile>

#include <sys/stat.h>

#include <algorithm>

namespace moat::helper {

namespace {

constexpr qint64 kMaxEventLine = 1 << 20;

}  // namespace

void TimelineIndex::evict()
{
    while (files_.size() > kMaxFiles) {
        auto oldest = files_.begin();
        for (auto it = files_.begin(); it != files_.end(); ++it) {
            if (it->lastUse < oldest->lastUse) {
                oldest = it;
            }
        }
        files_.erase(oldest);
    }
}

TimelineIndex::Page TimelineIndex::read(const QString& path, quint64 afterSeq, uint maxEvents, qsizetype maxBytes)
{
    Page page;
    QFile events(path);
    if (!events.open(QIODevice::ReadOnly)) {
        return page;
    }
    page.opened = true;
    struct stat st {};
    if (::fstat(events.handle(), &st) != 0) {
        return page;
    }
    FileIndex& index = files_[path];
    if (index.device != st.st_dev || index.inode != st.st_ino || st.st_size < index.indexedTo) {
        index = FileIndex{};  // another file, or one cut short: learn it again
        index.device = st.st_dev;
        index.inode = st.st_ino;
    }
    index.lastUse = ++clock_;

    // The last mark at or before the first wanted line (seq afterSeq + 1).
    qint64 start = 0;
    quint64 lineNumber = 0;  // lines before `start`
    const auto after = std::upper_bound(index.marks.begin(), index.marks.end(), afterSeq + 1,
                                        [](quint64 seq, const Mark& mark) { return seq < mark.seq; });
    if (after != index.marks.begin()) {
        const auto mark = std::prev(after);
        start = mark->offset;
        lineNumber = static_cast<quint64>(std::distance(index.marks.begin(), mark)) * kStride;
    }
    if (!events.seek(start)) {
        return page;
    }
    qint64 offset = start;
    // One buffer for the page: readLine(maxSize) would allocate maxSize
    // bytes for every line, which costs a page of 10,000 lines a mmap and
    // munmap each where the allocator hands big blocks to the kernel.
    QByteArray buffer(kMaxEventLine + 1, Qt::Uninitialized);
    while (page.count < maxEvents && page.lines.size() < maxBytes && !events.atEnd()) {
        const qint64 got = events.readLine(buffer.data(), buffer.size());
        if (got <= 0) {
            break;
        }
        const QByteArrayView line(buffer.constData(), got);
        if (!line.endsWith('\n')) {
            break;  // a line being written, or cut off: not an event yet
        }
        const qint64 lineOffset = offset;
        offset += line.size();
        ++page.scannedLines;
        const auto scanned = EventLine::scan(std::string_view(line.constData(), static_cast<size_t>(line.size() - 1)));
        // Learn the mark of every kStride-th line, once, in order.
        if (lineOffset == index.indexedTo) {
            if (lineNumber % kStride == 0) {
                // Kept non-decreasing whatever the line says, for the search above.
                const quint64 previous = index.marks.empty() ? 0 : index.marks.back().seq;
                const quint64 seq = scanned && scanned->seq ? *scanned->seq : previous;
                index.marks.push_back({std::max(seq, previous), lineOffset});
            }
            index.indexedTo = offset;
        }
        ++lineNumber;
        if (!scanned || !scanned->seq || *scanned->seq <= afterSeq) {
            continue;
        }
        if (page.count > 0 && page.lines.size() + line.size() > maxBytes) {
            break;
        }
        page.lines += line;
        ++page.count;
    }
    evict();
    return page;
}

}  // namespace moat::helper
