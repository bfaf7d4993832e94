// SPDX-License-Identifier: Apache-2.0
// moat-manager: the desktop application, a client of moatd on the user's
// session bus (docs/manager.md).
#include "main_window.h"
#include "moatd_connection.h"

#include <QApplication>
#include <QDBusConnection>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

int main(int argc, char* argv[])
{
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("moat-manager"));
    QApplication::setOrganizationName(QStringLiteral("moat"));
    QApplication::setApplicationDisplayName(QStringLiteral("moat"));
    QApplication::setApplicationVersion(QStringLiteral(MOAT_VERSION));

    QTranslator qtStrings;
    if (qtStrings.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                       QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QApplication::installTranslator(&qtStrings);
    }
    QTranslator moatStrings;
    if (moatStrings.load(QLocale(), QStringLiteral("moat"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        QApplication::installTranslator(&moatStrings);
    }

    moat::gui::MoatdConnection moatd(QDBusConnection::sessionBus());
    moat::gui::MainWindow window(&moatd);
    window.show();
    moatd.connectNow();
    return QApplication::exec();
}
