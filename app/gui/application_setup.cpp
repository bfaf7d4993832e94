// SPDX-License-Identifier: Apache-2.0
#include "application_setup.h"

#include <QApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace moat::gui {

void setUpApplication(QApplication& application)
{
    QApplication::setApplicationName(QStringLiteral("moat-manager"));
    QApplication::setOrganizationName(QStringLiteral("moat"));
    QApplication::setApplicationDisplayName(QStringLiteral("moat"));
    QApplication::setApplicationVersion(QStringLiteral(MOAT_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.moat.Manager"));

    auto* qtStrings = new QTranslator(&application);
    if (qtStrings->load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                        QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QApplication::installTranslator(qtStrings);
    }
    auto* moatStrings = new QTranslator(&application);
    if (moatStrings->load(QLocale(), QStringLiteral("moat"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        QApplication::installTranslator(moatStrings);
    }
}

}  // namespace moat::gui
