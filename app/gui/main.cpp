// SPDX-License-Identifier: Apache-2.0
// moat-manager: the desktop application, a client of moatd.
#include "moatd_connection.h"

#include <QApplication>

int main(int argc, char* argv[])
{
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("moat-manager"));
    QApplication::setOrganizationName(QStringLiteral("moat"));
    QApplication::setApplicationVersion(QStringLiteral(MOAT_VERSION));
    moat::gui::MoatdConnection moatd(moat::gui::MoatdConnection::busAt(qEnvironmentVariable("MOAT_MANAGER_BUS")));
    moatd.connectNow();
    return QApplication::exec();
}
