// SPDX-License-Identifier: Apache-2.0
// moat-manager speaks German completely: translations/moat_de.ts holds every
// string lupdate finds in app/gui (none left out, none unfinished), each
// translation keeps its source's placeholders, and the program carries the
// compiled translation that turns its windows German.

#include "main_window.h"
#include "moatd_connection.h"

#include <QDBusConnection>
#include <QDomDocument>
#include <QFile>
#include <QLibraryInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

namespace {

const QString kGermanTs = QStringLiteral(MOAT_SOURCE_DIR "/translations/moat_de.ts");

struct Message {
    QString context;
    QString source;
    QStringList translations;  // one, or one per plural form
    QString type;              // "unfinished", "vanished", "obsolete" or empty
    bool numerus = false;
};

QList<Message> readTs(const QString& path, QString* error)
{
    QFile file(path);
    QDomDocument document;
    if (!file.open(QIODevice::ReadOnly) || !document.setContent(&file, error)) {
        if (error->isEmpty()) {
            *error = file.errorString();
        }
        return {};
    }
    QList<Message> messages;
    const QDomNodeList contexts = document.elementsByTagName(QStringLiteral("context"));
    for (int c = 0; c < contexts.count(); ++c) {
        const QDomElement context = contexts.at(c).toElement();
        const QString name = context.firstChildElement(QStringLiteral("name")).text();
        for (QDomElement m = context.firstChildElement(QStringLiteral("message")); !m.isNull();
             m = m.nextSiblingElement(QStringLiteral("message"))) {
            Message message;
            message.context = name;
            message.source = m.firstChildElement(QStringLiteral("source")).text();
            message.numerus = m.attribute(QStringLiteral("numerus")) == QLatin1String("yes");
            const QDomElement translation = m.firstChildElement(QStringLiteral("translation"));
            message.type = translation.attribute(QStringLiteral("type"));
            const QDomNodeList forms = translation.elementsByTagName(QStringLiteral("numerusform"));
            if (forms.isEmpty()) {
                message.translations << translation.text();
            }
            for (int f = 0; f < forms.count(); ++f) {
                message.translations << forms.at(f).toElement().text();
            }
            messages << message;
        }
    }
    return messages;
}

QSet<QString> placeholders(const QString& text)
{
    static const QRegularExpression marker(QStringLiteral("%(?:\\d+|n)"));
    QSet<QString> found;
    for (auto it = marker.globalMatch(text); it.hasNext();) {
        found.insert(it.next().captured());
    }
    return found;
}

}  // namespace

class Translations : public QObject
{
    Q_OBJECT
private slots:
    void everyGermanStringIsTranslatedWithItsPlaceholders();
    void theGermanFileHoldsEveryStringOfTheSources();
    void theProgramCarriesTheGermanTranslation();
};

void Translations::everyGermanStringIsTranslatedWithItsPlaceholders()
{
    QString error;
    const QList<Message> messages = readTs(kGermanTs, &error);
    QVERIFY2(!messages.isEmpty(), qPrintable(error));
    QStringList problems;
    for (const Message& message : messages) {
        const QString where = message.context + QStringLiteral(": \"") + message.source + QLatin1Char('"');
        if (!message.type.isEmpty()) {
            problems << where + QStringLiteral(" is ") + message.type;
            continue;
        }
        for (const QString& translation : message.translations) {
            if (translation.trimmed().isEmpty()) {
                problems << where + QStringLiteral(" has no translation");
            } else if (placeholders(translation) != placeholders(message.source) &&
                       !(message.numerus && placeholders(translation) + QSet<QString>{QStringLiteral("%n")} ==
                                                placeholders(message.source))) {
                problems << where + QStringLiteral(" loses or adds a placeholder: ") + translation;
            }
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void Translations::theGermanFileHoldsEveryStringOfTheSources()
{
    const QString lupdate = QLibraryInfo::path(QLibraryInfo::BinariesPath) + QStringLiteral("/lupdate");
    if (!QFile::exists(lupdate)) {
        QSKIP("lupdate is not installed (apt-get install qt6-l10n-tools)");
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fresh = dir.filePath(QStringLiteral("fresh_de.ts"));
    QProcess run;
    run.setProcessChannelMode(QProcess::MergedChannels);
    run.start(lupdate, {QStringLiteral(MOAT_SOURCE_DIR "/app/gui"), QStringLiteral("-ts"), fresh,
                        QStringLiteral("-locations"), QStringLiteral("none")});
    QVERIFY(run.waitForFinished(60000));
    QVERIFY2(run.exitCode() == 0, run.readAll().constData());
    QString error;
    const QList<Message> inSources = readTs(fresh, &error);
    QVERIFY2(!inSources.isEmpty(), qPrintable(error));
    QSet<QString> inGerman;
    for (const Message& message : readTs(kGermanTs, &error)) {
        inGerman.insert(message.context + QLatin1Char('\x1f') + message.source);
    }
    QStringList missing;
    for (const Message& message : inSources) {
        if (!inGerman.contains(message.context + QLatin1Char('\x1f') + message.source)) {
            missing << message.context + QStringLiteral(": \"") + message.source + QLatin1Char('"');
        }
    }
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not in translations/moat_de.ts (run the "
                                                          "update_translations target, then translate):\n") +
                                           missing.join(QLatin1Char('\n'))));
}

void Translations::theProgramCarriesTheGermanTranslation()
{
    QTranslator german;
    QVERIFY2(german.load(QLocale(QLocale::German, QLocale::Germany), QStringLiteral("moat"), QStringLiteral("_"),
                         QStringLiteral(":/i18n")),
             "moat_de.qm is not among the program's resources");
    QVERIFY(QCoreApplication::installTranslator(&german));
    moat::gui::MoatdConnection moatd(
        QDBusConnection::connectToBus(QStringLiteral("unix:path=/nonexistent/bus"), QStringLiteral("nobus")));
    moat::gui::MainWindow window(&moatd);
    const QString sessions = window.tabs()->tabText(0);
    QCOMPARE(sessions, german.translate("moat::gui::MainWindow", "&Sessions"));
    QVERIFY2(sessions != QLatin1String("&Sessions"), qPrintable(sessions));
    QCoreApplication::removeTranslator(&german);
}

QTEST_MAIN(Translations)
#include "tst_translations.moc"
