// SPDX-License-Identifier: Apache-2.0
// moat-manager: the desktop application, a client of moatd on the user's
// session bus (docs/manager.md). `moat-manager --attach SOCKET` is the other
// end of "Open in terminal": it runs in a terminal emulator, needs no display
// and makes no window (attach_client.h).
#include "application_setup.h"
#include "attach_client.h"
#include "main_window.h"
#include "moatd_connection.h"

#include <QApplication>
#include <QDBusConnection>

#include <cstdio>
#include <cstring>

int main(int argc, char* argv[])
{
    // Before QApplication, which would want a display.
    if (argc >= 2 && std::strcmp(argv[1], "--attach") == 0) {
        if (argc != 3) {
            std::fputs("usage: moat-manager --attach SOCKET (moat-manager's \"Open in terminal\" runs this)\n",
                       stderr);
            return 125;
        }
        return moat::gui::runAttachClient(argv[2]);
    }
    QApplication application(argc, argv);
    moat::gui::setUpApplication(application);
    moat::gui::MoatdConnection moatd(QDBusConnection::sessionBus());
    moat::gui::MainWindow window(&moatd);
    window.show();
    moatd.connectNow();
    return QApplication::exec();
}
