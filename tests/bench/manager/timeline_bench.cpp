// SPDX-License-Identifier: Apache-2.0
// moat-manager's session view with a large timeline, against a real moatd
// on a private dbus-daemon (both started here, the build's moatd), over a
// real events.jsonl in a scratch state directory:
//  (1) open: SessionView for a session of N events (default 1,000,000):
//      time to the first rows drawn in the timeline, time until every event
//      is loaded (the view reads every page in the background), the
//      event loop's latency meanwhile, and the memory it took (RSS);
//  (2) live: events appended to the log at R per second (default 1,000),
//      with moatd's EventsAppended given at its rate (one per 250 ms: the
//      bench writes the lines itself, so no supervisor announces them);
//      how far the view's last row lags behind the last line written, and
//      the event loop's latency.
// Prints a markdown table. Not part of the test suite.

#include "moatd_connection.h"
#include "session_view.h"
#include "timeline_model.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace moat::gui;

namespace {

constexpr const char* kSession = "b3c4d5e6f7a8b9c0";

qint64 rssKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) {
        return 0;
    }
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
        }
    }
    return 0;
}

// A line as the supervisor writes it (the members of records.md; prev and
// mac are 64 hex digits that nobody checks here).
QByteArray eventLine(quint64 seq)
{
    static const QByteArray hex(64, 'a');
    const QByteArray n = QByteArray::number(seq);
    QByteArray type, data;
    switch (seq % 8) {
    case 0:
        type = "net.deny";
        data = R"({"host":"host)" + QByteArray::number(seq % 50) +
               R"(.example","port":443,"protocol":"connect","reason":"not allowed","suggestion":"--allow-host host.example"})";
        break;
    case 1:
    case 2:
        type = "net.allow";
        data = R"({"host":"api.github.com","port":443,"protocol":"connect","rule":"--allow-host api.github.com"})";
        break;
    case 3:
        type = "dns.query";
        data = R"({"answer":"NXDOMAIN","name":"pypi.org","qtype":"AAAA","transport":"udp"})";
        break;
    default:
        type = "exec";
        data = R"({"argv":["cc","-O2","-c","src/file)" + n + R"(.c","-o","obj/file)" + n + R"(.o"],"pid":)" + n + "}";
        break;
    }
    const qint64 ms = 1796117697000LL + static_cast<qint64>(seq);
    return "{\"data\":" + data + ",\"prev\":\"" + hex + "\",\"seq\":" + n + ",\"session\":\"" + kSession +
           "\",\"ts\":\"" + QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs).toUtf8() +
           "\",\"type\":\"" + type + "\",\"mac\":\"" + hex + "\"}\n";
}

bool writeEvents(const QString& path, quint64 from, quint64 to)
{
    QFile file(path);
    if (!file.open(QIODevice::Append)) {
        return false;
    }
    QByteArray chunk;
    for (quint64 seq = from; seq <= to; ++seq) {
        chunk += eventLine(seq);
        if (chunk.size() > (4 << 20)) {
            file.write(chunk);
            chunk.clear();
        }
    }
    file.write(chunk);
    return true;
}

// Lateness of a 5 ms timer: how long the event loop was busy elsewhere.
class LoopProbe : public QObject
{
public:
    explicit LoopProbe(QObject* parent) : QObject(parent)
    {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(5);
        connect(&timer_, &QTimer::timeout, this, [this] {
            const qint64 now = clock_.nsecsElapsed();
            if (last_ > 0) {
                samples_.push_back(std::max<qint64>(0, now - last_ - 5'000'000) / 1000);  // µs late
            }
            last_ = now;
        });
    }
    void start()
    {
        samples_.clear();
        last_ = 0;
        clock_.start();
        timer_.start();
    }
    void stop() { timer_.stop(); }
    qint64 percentile(double p) const
    {
        if (samples_.empty()) {
            return 0;
        }
        std::vector<qint64> sorted = samples_;
        std::sort(sorted.begin(), sorted.end());
        return sorted[std::min(sorted.size() - 1, static_cast<size_t>(p * static_cast<double>(sorted.size())))];
    }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0;
    std::vector<qint64> samples_;
};

// Paint events of the timeline's viewport once it has rows.
class FirstPaint : public QObject
{
public:
    FirstPaint(QTableView* view, QElapsedTimer* clock) : view_(view), clock_(clock)
    {
        view_->viewport()->installEventFilter(this);
    }
    qint64 ms = -1;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (ms < 0 && event->type() == QEvent::Paint && view_->model()->rowCount() > 0) {
            ms = clock_->elapsed();
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QTableView* view_;
    QElapsedTimer* clock_;
};

bool waitFor(const std::function<bool()>& done, int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms) {
            return false;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("moatd"), QStringLiteral("the moatd to start"), QStringLiteral("path")});
    parser.addOption({QStringLiteral("events"), QStringLiteral("events in the session"), QStringLiteral("n"),
                      QStringLiteral("1000000")});
    parser.addOption({QStringLiteral("rate"), QStringLiteral("live events per second"), QStringLiteral("n"),
                      QStringLiteral("1000")});
    parser.addOption({QStringLiteral("seconds"), QStringLiteral("live phase length"), QStringLiteral("s"),
                      QStringLiteral("10")});
    parser.addOption({QStringLiteral("dir"), QStringLiteral("scratch directory"), QStringLiteral("dir")});
    parser.process(app);
    const quint64 events = parser.value(QStringLiteral("events")).toULongLong();
    const int rate = parser.value(QStringLiteral("rate")).toInt();
    const int seconds = parser.value(QStringLiteral("seconds")).toInt();

    QTemporaryDir scratchOwner(parser.isSet(QStringLiteral("dir")) ? parser.value(QStringLiteral("dir")) + "/mgr-XXXXXX"
                                                                   : QDir::tempPath() + "/mgr-bench-XXXXXX");
    const QString scratch = scratchOwner.path();
    const QString sessionDir = scratch + QStringLiteral("/state/sessions/") + QLatin1String(kSession);
    QDir().mkpath(sessionDir);
    QDir().mkpath(scratch + QStringLiteral("/config"));
    QDir().mkpath(scratch + QStringLiteral("/run"));
    QFile::setPermissions(scratch + QStringLiteral("/run"), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                                QFileDevice::ExeOwner);
    {
        QFile spec(sessionDir + QStringLiteral("/spec.json"));
        spec.open(QIODevice::WriteOnly);
        spec.write(R"({"name":"bench","net":"proxy"})");
        QFile status(sessionDir + QStringLiteral("/status.json"));
        status.open(QIODevice::WriteOnly);
        status.write(R"({"state":"exited","exit_code":0})");
    }
    const QString log = sessionDir + QStringLiteral("/events.jsonl");
    fprintf(stderr, "writing %llu events\n", static_cast<unsigned long long>(events));
    if (!writeEvents(log, 1, events)) {
        fprintf(stderr, "cannot write %s\n", qPrintable(log));
        return 2;
    }
    const qint64 logBytes = QFileInfo(log).size();

    QProcess bus;
    bus.start(QStringLiteral("dbus-daemon"), {QStringLiteral("--session"), QStringLiteral("--nofork"),
                                              QStringLiteral("--print-address=1")});
    if (!bus.waitForReadyRead(10000)) {
        fprintf(stderr, "dbus-daemon did not start\n");
        return 2;
    }
    const QString address = QString::fromUtf8(bus.readLine().trimmed());
    QProcess moatd;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), address);
    env.insert(QStringLiteral("MOAT_STATE_DIR"), scratch + QStringLiteral("/state"));
    env.insert(QStringLiteral("MOAT_CONFIG_DIR"), scratch + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), scratch + QStringLiteral("/run"));
    moatd.setProcessEnvironment(env);
    moatd.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    moatd.start(parser.value(QStringLiteral("moatd")), {});
    if (!moatd.waitForStarted(5000)) {
        fprintf(stderr, "moatd did not start: %s\n", qPrintable(moatd.errorString()));
        return 2;
    }
    MoatdConnection connection(MoatdConnection::busAt(address));
    // Wait for moatd to own its name (a page read answers).
    if (!waitFor([&] { return connection.readTimelineNow(QLatin1String(kSession), 0, 1, 1000).ok; }, 15000)) {
        fprintf(stderr, "moatd does not answer on %s\n", qPrintable(address));
        return 2;
    }

    // (1) Open.
    const qint64 rssBefore = rssKiB();
    LoopProbe loop(&app);
    QElapsedTimer clock;
    clock.start();
    loop.start();
    auto* view = new SessionView(&connection, QLatin1String(kSession));
    view->tabs()->setCurrentIndex(SessionView::TimelineTab);
    FirstPaint firstPaint(view->timelineView(), &clock);
    view->resize(1200, 800);
    view->show();
    TimelineModel* model = view->timelineModel();
    waitFor([&] { return firstPaint.ms >= 0; }, 60000);
    const bool loaded = waitFor([&] { return static_cast<quint64>(model->rowCount()) >= events; }, 600000);
    const qint64 allMs = clock.elapsed();
    loop.stop();
    const qint64 openP50 = loop.percentile(0.5), openP99 = loop.percentile(0.99), openMax = loop.percentile(1.0);
    QCoreApplication::processEvents();
    const qint64 rssAfter = rssKiB();

    // (2) Live: R lines a second written to the log, announced every 250 ms.
    quint64 written = events;
    std::vector<qint64> lagMs;
    QElapsedTimer live;
    QTimer writer;
    writer.setInterval(250);
    QObject::connect(&writer, &QTimer::timeout, [&] {
        const quint64 target = events + static_cast<quint64>(live.elapsed() * rate / 1000);
        if (target > written) {
            writeEvents(log, written + 1, target);
            written = target;
        }
        model->onEventsAppended(written);  // what moatd's EventsAppended carries
    });
    QTimer sampler;
    sampler.setInterval(100);
    QObject::connect(&sampler, &QTimer::timeout, [&] {
        const quint64 shown = static_cast<quint64>(model->rowCount());
        lagMs.push_back(written > shown ? static_cast<qint64>((written - shown) * 1000 / static_cast<quint64>(rate)) : 0);
    });
    view->timelineView()->scrollToBottom();
    loop.start();
    live.start();
    writer.start();
    sampler.start();
    waitFor([&] { return live.elapsed() >= seconds * 1000; }, seconds * 1000 + 5000);
    writer.stop();
    sampler.stop();
    loop.stop();
    const bool caughtUp = waitFor([&] { return static_cast<quint64>(model->rowCount()) >= written; }, 10000);
    std::sort(lagMs.begin(), lagMs.end());
    const qint64 lagP50 = lagMs.empty() ? 0 : lagMs[lagMs.size() / 2];
    const qint64 lagMax = lagMs.empty() ? 0 : lagMs.back();

    printf("| measure | value |\n|---|---|\n");
    printf("| events in the session | %llu (events.jsonl %.0f MiB) |\n", static_cast<unsigned long long>(events),
           static_cast<double>(logBytes) / (1 << 20));
    printf("| open: first rows drawn | %lld ms |\n", static_cast<long long>(firstPaint.ms));
    printf("| open: every event loaded (background pages) | %s%lld ms |\n", loaded ? "" : "NOT DONE after ",
           static_cast<long long>(allMs));
    printf("| open: event-loop latency p50 / p99 / max | %.1f / %.1f / %.1f ms |\n", openP50 / 1000.0, openP99 / 1000.0,
           openMax / 1000.0);
    printf("| memory: RSS before / after loading | %lld / %lld MiB (+%lld MiB; rows' own storage %.0f MiB) |\n",
           static_cast<long long>(rssBefore / 1024), static_cast<long long>(rssAfter / 1024),
           static_cast<long long>((rssAfter - rssBefore) / 1024),
           static_cast<double>(model->storageBytes()) / (1 << 20));
    printf("| live: %d events/s for %d s | %llu appended, %s |\n", rate, seconds,
           static_cast<unsigned long long>(written - events), caughtUp ? "all shown" : "NOT all shown");
    printf("| live: lag of the last row shown, p50 / max | %lld / %lld ms |\n", static_cast<long long>(lagP50),
           static_cast<long long>(lagMax));
    printf("| live: event-loop latency p50 / p99 / max | %.1f / %.1f / %.1f ms |\n", loop.percentile(0.5) / 1000.0,
           loop.percentile(0.99) / 1000.0, loop.percentile(1.0) / 1000.0);

    delete view;
    moatd.terminate();
    moatd.waitForFinished(5000);
    bus.terminate();
    bus.waitForFinished(5000);
    return loaded && caughtUp ? 0 : 1;
}
