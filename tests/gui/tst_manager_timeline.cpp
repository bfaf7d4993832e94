// SPDX-License-Identifier: Apache-2.0
// The session view against a real moatd (D-Bus activation on a private bus,
// gnome-keyring, real moat and a real sandbox): a session that runs
// commands, makes one allowed HTTPS connection (to a TLS upstream on the
// host's loopback, --allow-host) and one denied request, seen while it
// runs: SessionView's timeline gets the events through moatd's
// ReadTimeline and EventsAppended (appended, never reset), filters to the
// denied one, its network tab counts per host, the denied event's details
// offer the narrow --allow-host, and "Allow this next time" writes it into
// a user profile after the confirmation shows the exact text.
//
// moatd answers only callers of its own uid and the view runs inside this
// test process: a row runs where the account's uid is this process's.

#include "allow_rule_dialog.h"
#include "moatd_connection.h"
#include "network_summary_model.h"
#include "session_view.h"
#include "timeline_filter.h"
#include "timeline_model.h"

#include "integrationfixture.h"
#include "moatdbus.h"
#include "own_account.h"
#include "recordingupstream.h"
#include "rerun_as_ordinary_account.h"

#include <QComboBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>


using namespace moat::gui;

namespace {

int rowOfType(const TimelineModel& model, const QString& type)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.typeAt(row) == type) {
            return row;
        }
    }
    return -1;
}

QString typesOf(const TimelineModel& model)
{
    QStringList types;
    for (int row = 0; row < model.rowCount(); ++row) {
        types.append(model.typeAt(row) + QLatin1Char(' ') + model.summaryAt(row));
    }
    return types.join(QLatin1Char('\n'));
}

}  // namespace

class ManagerTimeline : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void aRunningSessionsTimelineAndNetwork_data();
    void aRunningSessionsTimelineAndNetwork();
    void theUserRowAsAnOrdinaryAccount();

private:
    IntegrationFixture fixture_;
};

void ManagerTimeline::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void ManagerTimeline::init()
{
    fixture_.renewWorkspaces();
}

void ManagerTimeline::cleanupTestCase()
{
    fixture_.tearDown();
}

void ManagerTimeline::aRunningSessionsTimelineAndNetwork_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void ManagerTimeline::aRunningSessionsTimelineAndNetwork()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    if (const QString why = whyWindowsCannotRunAs(runner); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    UpstreamPki pki(runner);
    QVERIFY(pki.ok);
    RecordingUpstream upstream(runner, pki);
    MoatdBus bus(runner);
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    MoatdConnection connection(MoatdConnection::busAt(bus.address()));

    // The session waits for the view before it reaches for the network, so
    // that its events arrive as appends.
    const QString gate = runner->workspace() + QStringLiteral("/go");
    const QString script =
        QStringLiteral("while [ ! -e '%1' ]; do sleep 0.1; done; "
                       "curl -sS --cacert '%2' --noproxy '' --proxy http://127.0.0.1:3128 -o /dev/null "
                       "-w 'ALLOWED=%{http_code}\\n' %3; "
                       "curl -sS --noproxy '' --proxy http://127.0.0.1:3128 -o /dev/null "
                       "-w 'DENIED=%{http_code}\\n' http://denied.example:8080/x; "
                       "sleep 1")
            .arg(gate, pki.ca, upstream.url(QStringLiteral("/hello")));
    const QString name = QStringLiteral("gui-timeline");
    auto session = bus.startSession({QStringLiteral("--name"), name, QStringLiteral("--allow-host"),
                                     upstream.authority(), QStringLiteral("--ro"), pki.dir},
                                    script);
    QString id;
    QTRY_VERIFY2_WITH_TIMEOUT(!(id = bus.session(name).value(QLatin1String("id")).toString()).isEmpty(),
                              session->output().constData(), 30000);

    SessionView view(&connection, id);
    QTemporaryDir profiles;
    view.setProfileDirectory(profiles.path());
    view.resize(900, 600);
    view.show();
    view.tabs()->setCurrentIndex(SessionView::TimelineTab);
    TimelineModel& model = *view.timelineModel();
    QTRY_VERIFY_WITH_TIMEOUT(rowOfType(model, QStringLiteral("session.start")) >= 0, 20000);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    const int before = model.rowCount();

    QFile go(gate);
    QVERIFY(go.open(QIODevice::WriteOnly));
    go.close();
    QTRY_VERIFY2_WITH_TIMEOUT(session->output().contains("EXIT="), session->output().constData(), 60000);
    const QByteArray output = session->output();
    QVERIFY2(output.contains("ALLOWED=200"), output.constData());
    QVERIFY2(output.contains("DENIED=") && !output.contains("DENIED=200"), output.constData());

    // Everything up to session.end arrives by appends, without a reset.
    QTRY_VERIFY2_WITH_TIMEOUT(rowOfType(model, QStringLiteral("session.end")) >= 0, qPrintable(typesOf(model)), 20000);
    QCOMPARE(resets.count(), 0);
    QVERIFY(inserted.count() >= 1);
    QVERIFY(model.rowCount() > before);
    QVERIFY2(rowOfType(model, QStringLiteral("exec")) >= 0, qPrintable(typesOf(model)));
    const int allowed = rowOfType(model, QStringLiteral("net.allow"));
    const int denied = rowOfType(model, QStringLiteral("net.deny"));
    QVERIFY2(allowed >= 0 && denied >= 0, qPrintable(typesOf(model)));
    QCOMPARE(model.hostAt(allowed), QStringLiteral("127.0.0.1"));
    QCOMPARE(model.hostAt(denied), QStringLiteral("denied.example"));
    QCOMPARE(view.timelineView()->model()->rowCount(), model.rowCount());

    // Filter to denied network events: only the denied one.
    view.showKind(EventKind::NetDenied);
    TimelineFilter& filter = *view.timelineFilter();
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.data(filter.index(0, TimelineModel::TypeColumn)).toString(), QStringLiteral("net.deny"));
    QVERIFY(filter.data(filter.index(0, TimelineModel::SummaryColumn)).toString().contains(
        QStringLiteral("denied.example:8080")));
    view.showKind(std::nullopt);
    view.searchBox()->setText(QStringLiteral("curl"));
    QTRY_VERIFY(filter.rowCount() >= 2 && filter.rowCount() < model.rowCount());
    view.searchBox()->clear();
    QTRY_VERIFY(filter.searchText().isEmpty());  // the search applies after a short pause
    QCOMPARE(filter.rowCount(), model.rowCount());

    // The network tab: per host.
    view.tabs()->setCurrentIndex(SessionView::NetworkTab);
    NetworkSummaryModel& network = *view.networkModel();
    const int local = network.rowOf(QStringLiteral("127.0.0.1"));
    const int other = network.rowOf(QStringLiteral("denied.example"));
    QVERIFY(local >= 0 && other >= 0);
    QCOMPARE(network.data(network.index(local, NetworkSummaryModel::AllowedColumn)).toInt(), 1);
    QCOMPARE(network.data(network.index(local, NetworkSummaryModel::DeniedColumn)).toInt(), 0);
    QCOMPARE(network.data(network.index(other, NetworkSummaryModel::AllowedColumn)).toInt(), 0);
    QCOMPARE(network.data(network.index(other, NetworkSummaryModel::DeniedColumn)).toInt(), 1);
    QCOMPARE(view.networkView()->model()->rowCount(), network.rowCount());

    // The denied event's details, read again from moatd by seq.
    view.tabs()->setCurrentIndex(SessionView::TimelineTab);
    view.showKind(EventKind::NetDenied);
    QSignalSpy shown(&view, &SessionView::detailsShown);
    view.timelineView()->setFocus();
    view.timelineView()->selectionModel()->clearCurrentIndex();  // focus may have made a row current
    view.timelineView()->setCurrentIndex(filter.index(0, TimelineModel::SummaryColumn));
    // Focus may have made the same row current first: the last one shown counts.
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && shown.last().at(0).toULongLong() == model.seqAt(denied), 10000);
    QCOMPARE(view.selectedEvent().value(QLatin1String("seq")).toInteger(),
             static_cast<qint64>(model.seqAt(denied)));
    QVERIFY(view.detailsView()->toPlainText().contains(QStringLiteral("denied.example")));
    QCOMPARE(view.selectedAllowRule(), QStringLiteral("--allow-host denied.example:8080"));
    QVERIFY(view.allowButton()->isEnabled());

    // "Allow this next time": the confirmation shows the file's exact text;
    // only "Write to profile" writes it.
    QTest::mouseClick(view.allowButton(), Qt::LeftButton);
    auto* dialog = view.findChild<AllowRuleDialog*>(QStringLiteral("allowRuleDialog"));
    QVERIFY(dialog != nullptr);
    dialog->setProfileName(QStringLiteral("mine"));
    const QString text = dialog->previewText();
    QVERIFY2(text.endsWith(QStringLiteral("allow_host = [\"denied.example:8080\"]\n")), qPrintable(text));
    QVERIFY(!QFile::exists(profiles.filePath(QStringLiteral("mine.toml"))));
    QTest::mouseClick(dialog->writeButton(), Qt::LeftButton);
    QFile written(profiles.filePath(QStringLiteral("mine.toml")));
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(written.readAll()), text);
}

// Run as root, the "user" row above skips (the window lives in this
// process); a copy of this program runs it as the ordinary test account.
void ManagerTimeline::theUserRowAsAnOrdinaryAccount()
{
    QString skip;
    const QString failed =
        rerunAsOrdinaryAccount(fixture_, {QStringLiteral("aRunningSessionsTimelineAndNetwork")}, &skip);
    if (!skip.isEmpty()) {
        QSKIP(qPrintable(skip));
    }
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

QTEST_MAIN(ManagerTimeline)
#include "tst_manager_timeline.moc"
