// SPDX-License-Identifier: Apache-2.0
// Cold start of moat-manager: the same steps as app/gui/main.cpp (the
// application's setup, MoatdConnection, MainWindow, show), with two clock
// readings: the first paint of the Sessions table, and its first paint
// after the session list came from moatd. Prints "first_paint_ms N" and
// "sessions_drawn_ms N", measured from --t0 (the launcher's clock just
// before exec, CLOCK_REALTIME in ns), then quits.
//
// --bare: a QMainWindow holding an empty QTableView and nothing else, the
// floor that starting Qt Widgets itself costs on this machine.

#include "application_setup.h"
#include "main_window.h"
#include "moatd_connection.h"
#include "session_list_model.h"
#include "sessions_page.h"

#include <QApplication>
#include <QDBusConnection>
#include <QMainWindow>
#include <QTableView>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <ctime>

namespace {

qint64 t0Ns = 0;

double msSinceStart()
{
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<double>(static_cast<qint64>(now.tv_sec) * 1000000000 + now.tv_nsec - t0Ns) / 1e6;
}

// Calls `done` after the watched widget's next paint event was handled.
class PaintWatch : public QObject
{
public:
    PaintWatch(QWidget* widget, std::function<bool()> ready, std::function<void()> done)
        : ready_(std::move(ready)), done_(std::move(done))
    {
        widget->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && !fired_ && ready_()) {
            fired_ = true;
            // After this paint is done, not before it.
            QTimer::singleShot(0, this, done_);
        }
        return false;
    }

private:
    std::function<bool()> ready_;
    std::function<void()> done_;
    bool fired_ = false;
};

}  // namespace

int main(int argc, char* argv[])
{
    bool bare = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--t0") == 0 && i + 1 < argc) {
            t0Ns = std::strtoll(argv[++i], nullptr, 10);
        } else if (std::strcmp(argv[i], "--bare") == 0) {
            bare = true;
        }
    }
    if (t0Ns == 0) {
        std::fprintf(stderr, "cold_start: give --t0 NS (date +%%s%%N just before exec)\n");
        return 2;
    }
    QApplication application(argc, argv);
    if (bare) {
        QMainWindow window;
        auto* table = new QTableView(&window);
        window.setCentralWidget(table);
        PaintWatch watch(table->viewport(), [] { return true; }, [] {
            std::printf("first_paint_ms %.1f\nsessions_drawn_ms %.1f\n", msSinceStart(), msSinceStart());
            QApplication::quit();
        });
        window.show();
        return QApplication::exec();
    }
    moat::gui::setUpApplication(application);
    moat::gui::MoatdConnection moatd(QDBusConnection::sessionBus());
    moat::gui::MainWindow window(&moatd);
    bool loaded = false;
    QObject::connect(window.sessions(), &moat::gui::SessionListModel::refreshed, [&loaded] { loaded = true; });
    QWidget* viewport = window.sessionsPage()->table()->viewport();
    PaintWatch first(viewport, [] { return true; }, [] { std::printf("first_paint_ms %.1f\n", msSinceStart()); });
    PaintWatch drawn(viewport, [&loaded] { return loaded; }, [] {
        std::printf("sessions_drawn_ms %.1f\n", msSinceStart());
        QApplication::quit();
    });
    window.show();
    moatd.connectNow();
    QTimer::singleShot(10000, [] {
        std::fprintf(stderr, "cold_start: no session list from moatd within 10 s\n");
        QApplication::exit(1);
    });
    return QApplication::exec();
}
