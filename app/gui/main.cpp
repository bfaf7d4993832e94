// SPDX-License-Identifier: Apache-2.0
// moat-manager: the desktop application, a client of moatd on the user's
// session bus (docs/manager.md).
#include "application_setup.h"
#include "main_window.h"
#include "moatd_connection.h"

#include <QApplication>
#include <QDBusConnection>

int main(int argc, char* argv[])
{
    QApplication application(argc, argv);
    moat::gui::setUpApplication(application);
    moat::gui::MoatdConnection moatd(QDBusConnection::sessionBus());
    moat::gui::MainWindow window(&moatd);
    window.show();
    moatd.connectNow();
    return QApplication::exec();
}
