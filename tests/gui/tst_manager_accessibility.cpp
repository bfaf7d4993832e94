// SPDX-License-Identifier: Apache-2.0
// What a desktop user expects of moat-manager's windows: every control a
// keyboard can reach has a name a screen reader says; the keyboard reaches
// every control, and each Alt key acts on one control only (in English and
// German); the windows follow a dark palette; the window comes back at the
// size the user left it; the icon is drawn sharp at a high-DPI scale.
// Without moatd (the windows must work, and say so, when it is not there).

#include "app_icon.h"
#include "main_window.h"
#include "moatd_connection.h"
#include "new_sandbox_dialog.h"
#include "output_pane.h"
#include "session_view.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDBusConnection>
#include <QGroupBox>
#include <QHash>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScopeGuard>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTranslator>

using namespace moat::gui;

namespace {

// The controls a person operates (not the parts of a composite control,
// which its own name covers).
bool isControl(QWidget* widget)
{
    QWidget* parent = widget->parentWidget();
    if (parent != nullptr && (qobject_cast<QComboBox*>(parent) || qobject_cast<QAbstractSpinBox*>(parent) ||
                              qobject_cast<QAbstractItemView*>(parent) || qobject_cast<QLineEdit*>(parent) ||
                              parent->inherits("QComboBoxPrivateContainer"))) {
        return false;
    }
    if (qobject_cast<QHeaderView*>(widget)) {
        return false;
    }
    return qobject_cast<QAbstractButton*>(widget) || qobject_cast<QLineEdit*>(widget) ||
           qobject_cast<QComboBox*>(widget) || qobject_cast<QAbstractItemView*>(widget) ||
           qobject_cast<QAbstractSpinBox*>(widget) || qobject_cast<QPlainTextEdit*>(widget);
}

QStringList unnamedControls(QWidget* window)
{
    QStringList unnamed;
    for (QWidget* widget : window->findChildren<QWidget*>()) {
        if (!isControl(widget)) {
            continue;
        }
        QAccessibleInterface* accessible = QAccessible::queryAccessibleInterface(widget);
        const QString name = accessible != nullptr ? accessible->text(QAccessible::Name) : QString();
        if (name.trimmed().isEmpty()) {
            unnamed << QStringLiteral("%1 %2 (in %3)")
                           .arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName(),
                                QString::fromLatin1(widget->parentWidget()->metaObject()->className()));
        }
        if (widget->focusPolicy() == Qt::NoFocus && !qobject_cast<QAbstractButton*>(widget)) {
            unnamed << QStringLiteral("%1 %2 cannot take the keyboard focus")
                           .arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName());
        }
    }
    return unnamed;
}

// The access key of a text ("Sa&ve" -> 'v'; "&&" is a literal ampersand).
QChar accessKey(const QString& text)
{
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('&')) {
            if (text.at(i + 1) != QLatin1Char('&')) {
                return text.at(i + 1).toLower();
            }
            ++i;
        }
    }
    return {};
}

// Texts with an access key that Alt+key can reach together in `window`
// (what is visible at once), and labels whose key reaches nothing.
void collectAccessKeys(QWidget* window, QHash<QChar, QStringList>* keys, QStringList* unreachable)
{
    auto add = [keys](const QString& text) {
        if (const QChar key = accessKey(text); !key.isNull()) {
            (*keys)[key].append(text);
        }
    };
    for (QWidget* widget : window->findChildren<QWidget*>()) {
        if (!widget->isVisibleTo(window)) {
            continue;
        }
        if (auto* button = qobject_cast<QAbstractButton*>(widget)) {
            add(button->text());
        } else if (auto* label = qobject_cast<QLabel*>(widget); label != nullptr && label->buddy() != nullptr) {
            add(label->text());
        } else if (label != nullptr && label->textFormat() != Qt::PlainText && !accessKey(label->text()).isNull()) {
            // Without a buddy the key does nothing and the "&" shows as is.
            unreachable->append(label->text());
        } else if (auto* box = qobject_cast<QGroupBox*>(widget)) {
            add(box->title());
        } else if (auto* bar = qobject_cast<QTabBar*>(widget)) {
            for (int tab = 0; tab < bar->count(); ++tab) {
                add(bar->tabText(tab));
            }
        }
    }
}

QStringList clashes(const QHash<QChar, QStringList>& keys)
{
    QStringList out;
    for (auto it = keys.begin(); it != keys.end(); ++it) {
        if (it.value().size() > 1) {
            out << QStringLiteral("Alt+%1: %2").arg(it.key(), it.value().join(QLatin1String(", ")));
        }
    }
    return out;
}

}  // namespace

class ManagerAccessibility : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void everyControlHasANameAScreenReaderSays();
    void noTwoControlsShareAnAccessKey_data();
    void noTwoControlsShareAnAccessKey();
    void theWindowsFollowADarkPalette();
    void theWindowComesBackAtItsSize();
    void theIconIsSharpAtHighDpi();

private:
    QTemporaryDir config_;
    std::unique_ptr<MoatdConnection> moatd_;
};

void ManagerAccessibility::initTestCase()
{
    QVERIFY(config_.isValid());
    qputenv("XDG_CONFIG_HOME", config_.path().toUtf8());
    qputenv("MOAT_CONFIG_DIR", config_.filePath(QStringLiteral("moat")).toUtf8());
    QApplication::setOrganizationName(QStringLiteral("moat"));
    QApplication::setApplicationName(QStringLiteral("moat-manager-test"));
    moatd_ = std::make_unique<MoatdConnection>(
        QDBusConnection::connectToBus(QStringLiteral("unix:path=/nonexistent/bus"), QStringLiteral("nobus")));
}

void ManagerAccessibility::everyControlHasANameAScreenReaderSays()
{
    MainWindow window(moatd_.get());
    QStringList problems;
    for (int page = 0; page < window.tabs()->count(); ++page) {
        problems << unnamedControls(window.tabs()->widget(page));
    }
    window.showNewSandboxDialog();
    problems << unnamedControls(window.newSandboxDialog());
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void ManagerAccessibility::noTwoControlsShareAnAccessKey_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("English") << QString();
    QTest::newRow("German") << QStringLiteral("de");
}

void ManagerAccessibility::noTwoControlsShareAnAccessKey()
{
    // Two controls on one Alt+key only move the focus between them instead
    // of acting: each page, with the tab bar above it, and the New sandbox
    // dialog, must give every key to one control, in each language built in.
    QFETCH(QString, language);
    QTranslator translator;
    if (!language.isEmpty()) {
        QVERIFY2(translator.load(QLocale(language), QStringLiteral("moat"), QStringLiteral("_"), QStringLiteral(":/i18n")),
                 "the translation is not among the program's resources");
        QVERIFY(QCoreApplication::installTranslator(&translator));
    }
    const auto removeTranslator = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });
    MainWindow window(moatd_.get());
    QStringList problems;
    auto check = [&problems](QWidget* shown, const QString& where) {
        QHash<QChar, QStringList> keys;
        QStringList unreachable;
        collectAccessKeys(shown, &keys, &unreachable);
        for (const QString& clash : clashes(keys)) {
            problems << where + QStringLiteral(": ") + clash;
        }
        for (const QString& label : unreachable) {
            problems << where + QStringLiteral(": the label \"") + label + QStringLiteral("\" has a key but no buddy");
        }
    };
    for (int page = 0; page < window.tabs()->count(); ++page) {
        window.tabs()->setCurrentIndex(page);
        check(&window, window.tabs()->tabText(page) + QStringLiteral(" page"));
    }
    // A session's view is a tab of the window: each of its own tabs, with
    // both tab bars. The session's name is shown as it is, never as a key.
    window.openSession(QStringLiteral("a&b"));
    auto* view = qobject_cast<SessionView*>(window.tabs()->currentWidget());
    QVERIFY(view != nullptr);
    QCOMPARE(accessKey(window.tabs()->tabText(window.tabs()->currentIndex())), QChar());
    for (int tab = 0; tab < view->tabs()->count(); ++tab) {
        view->tabs()->setCurrentIndex(tab);
        check(&window, QStringLiteral("Session view, ") + view->tabs()->tabText(tab));
    }
    window.showNewSandboxDialog();
    check(window.newSandboxDialog(), QStringLiteral("New sandbox"));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// A dark desktop theme is a palette: no window may fix a colour of its own
// (a style sheet or a palette set on a widget) that would stay light on it,
// and the agent's plain output is drawn in the palette's text colour.
void ManagerAccessibility::theWindowsFollowADarkPalette()
{
    const QPalette before = QApplication::palette();
    const auto restore = qScopeGuard([&before] { QApplication::setPalette(before); });
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x25));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Base, QColor(0x18, 0x19, 0x1b));
    dark.setColor(QPalette::Text, QColor(0xf0, 0xf0, 0xf0));
    dark.setColor(QPalette::Button, QColor(0x30, 0x32, 0x36));
    dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
    QApplication::setPalette(dark);

    MainWindow window(moatd_.get());
    window.openSession(QStringLiteral("dark-session"));
    window.showNewSandboxDialog();
    QStringList fixed;
    QList<QWidget*> widgets = window.findChildren<QWidget*>();
    widgets << window.newSandboxDialog() << window.newSandboxDialog()->findChildren<QWidget*>();
    for (QWidget* widget : widgets) {
        if (!widget->styleSheet().isEmpty() || widget->testAttribute(Qt::WA_SetPalette)) {
            fixed << QStringLiteral("%1 %2").arg(QString::fromLatin1(widget->metaObject()->className()),
                                                 widget->objectName());
        }
    }
    QVERIFY2(fixed.isEmpty(), qPrintable(QStringLiteral("colours fixed on: ") + fixed.join(QLatin1String(", "))));

    auto* view = qobject_cast<SessionView*>(window.tabs()->currentWidget());
    QVERIFY(view != nullptr);
    OutputPane* pane = view->outputPane();
    pane->clear();
    pane->appendOutput("plain output\r\n");
    QTextCursor cursor(pane->view()->document()->firstBlock());
    cursor.setPosition(cursor.block().position() + 1);
    QCOMPARE(cursor.charFormat().foreground().color(), dark.color(QPalette::Text));
    QCOMPARE(pane->view()->palette().color(QPalette::Base), dark.color(QPalette::Base));
}

void ManagerAccessibility::theWindowComesBackAtItsSize()
{
    {
        MainWindow window(moatd_.get());
        window.show();
        window.resize(777, 555);
        QVERIFY(window.close());
    }
    MainWindow again(moatd_.get());
    QCOMPARE(again.size(), QSize(777, 555));
}

void ManagerAccessibility::theIconIsSharpAtHighDpi()
{
    const QIcon icon = appIcon();
    for (const qreal ratio : {1.0, 2.0, 3.0}) {
        const QPixmap pixmap = icon.pixmap(QSize(32, 32), ratio);
        QCOMPARE(pixmap.size(), QSize(32, 32) * ratio);
        const QImage image = pixmap.toImage();
        // Drawn at its own resolution: opaque in the middle, clear in the corner.
        QVERIFY(qAlpha(image.pixel(image.width() / 2, image.height() / 2)) == 255);
        QVERIFY(qAlpha(image.pixel(0, 0)) == 0);
    }
}

QTEST_MAIN(ManagerAccessibility)
#include "tst_manager_accessibility.moc"
