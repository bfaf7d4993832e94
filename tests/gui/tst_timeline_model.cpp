// SPDX-License-Identifier: Apache-2.0
// TimelineModel, TimelineFilter and NetworkSummaryModel over an in-memory
// events.jsonl (timeline_feed.h): pages, appends without a reset, filters
// by kind and text that follow appends, per-host network counts, details
// read by seq, summaries of hostile text, and "Allow this next time"'s
// suggestion check and profile edit.

#include "event_summary.h"
#include "policy/profile.h"
#include "network_summary_model.h"
#include "profile_rule_writer.h"
#include "timeline_feed.h"
#include "timeline_filter.h"
#include "timeline_model.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace moat::gui;
using moat::gui::testing::TimelineFeed;

class TimelineModelTest : public QObject
{
    Q_OBJECT

private slots:
    void pagesComeOnFetchMore();
    void asynchronousPagesOneAtATime();
    void appendsWithoutReset();
    void appendsBeforeTheEndWaitForFetch();
    void loadAllReadsEveryPage();
    void largePagesAreParsedOffTheWindowThread();
    void aFailedReadIsReported();
    void filterByKindAndText();
    void filterFollowsAppends();
    void networkCountsPerHost();
    void detailsAreReadBySeq();
    void summariesAreOneLineOfPlainText();
    void allowSuggestion_data();
    void allowSuggestion();
    void profileWriterAddsToAllowHost();
    void profileWriterCreatesAndRefuses();
};

void TimelineModelTest::pagesComeOnFetchMore()
{
    TimelineFeed feed;
    feed.addMix(250);
    TimelineModel model(feed.reader());
    model.setPageSize(100);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.canFetchMore());
    model.fetchMore();
    QCOMPARE(model.rowCount(), 100);
    QVERIFY(model.canFetchMore());
    model.fetchMore();
    model.fetchMore();
    QCOMPARE(model.rowCount(), 250);
    QVERIFY(!model.canFetchMore());
    QCOMPARE(feed.reads, 3);
    QCOMPARE(model.seqAt(0), 1u);
    QCOMPARE(model.seqAt(249), 250u);
    QCOMPARE(model.data(model.index(2, TimelineModel::TypeColumn)).toString(), QStringLiteral("net.deny"));
    QCOMPARE(model.kindAt(2), EventKind::NetDenied);
    QVERIFY(model.data(model.index(0, TimelineModel::SummaryColumn)).toString().startsWith(QStringLiteral("make test")));
    QVERIFY(!model.data(model.index(0, TimelineModel::TypeColumn), Qt::DecorationRole).value<QIcon>().isNull());
    const QDateTime shown = QDateTime::fromString(model.data(model.index(0, TimelineModel::TimeColumn)).toString(),
                                                  QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    QCOMPARE(shown.toMSecsSinceEpoch(), 1796117697001LL);  // local time of the line's ts
}

void TimelineModelTest::asynchronousPagesOneAtATime()
{
    TimelineFeed feed;
    feed.addMix(30);
    TimelineModel model(feed.reader(true));
    model.setPageSize(10);
    model.fetchMore();
    QVERIFY(model.isLoading());
    QVERIFY(!model.canFetchMore());  // one page at a time
    model.fetchMore();
    QCOMPARE(feed.reads, 1);
    QTRY_COMPARE(model.rowCount(), 10);
    QVERIFY(model.canFetchMore());
}

void TimelineModelTest::appendsWithoutReset()
{
    TimelineFeed feed;
    feed.addMix(50);
    TimelineModel model(feed.reader());
    model.setPageSize(100);
    model.fetchMore();
    QCOMPARE(model.rowCount(), 50);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    for (int batch = 0; batch < 5; ++batch) {
        feed.addMix(7);
        model.onEventsAppended(feed.lastSeq());
    }
    QCOMPARE(model.rowCount(), 85);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserted.count(), 5);
    QCOMPARE(inserted.at(0).at(1).toInt(), 50);
    QCOMPARE(inserted.at(0).at(2).toInt(), 56);
    QCOMPARE(model.seqAt(84), 85u);
    // A signal for events already read reads nothing.
    const int reads = feed.reads;
    model.onEventsAppended(feed.lastSeq());
    QCOMPARE(feed.reads, reads);
}

void TimelineModelTest::appendsBeforeTheEndWaitForFetch()
{
    TimelineFeed feed;
    feed.addMix(30);
    TimelineModel model(feed.reader());
    model.setPageSize(10);
    model.fetchMore();
    feed.addMix(5);
    model.onEventsAppended(feed.lastSeq());
    QCOMPARE(model.rowCount(), 10);  // the view fetches the pages in between when it needs them
    QCOMPARE(model.knownLastSeq(), 35u);
    QVERIFY(model.canFetchMore());
}

void TimelineModelTest::loadAllReadsEveryPage()
{
    TimelineFeed feed;
    feed.addMix(1234);
    TimelineModel model(feed.reader(true));
    model.setPageSize(100);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.setLoadAll(true);
    QTRY_COMPARE(model.rowCount(), 1234);
    QTRY_VERIFY(!model.isLoading());
    QCOMPARE(resets.count(), 0);
    feed.addMix(3);
    model.onEventsAppended(feed.lastSeq());
    QTRY_COMPARE(model.rowCount(), 1237);
}

void TimelineModelTest::largePagesAreParsedOffTheWindowThread()
{
    TimelineFeed feed;
    feed.addMix(25000);  // pages of 10,000: well over the 256 KiB parsed at once
    TimelineModel model(feed.reader());
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.fetchMore();
    QCOMPARE(model.rowCount(), 0);  // the reply came at once; the rows come from the worker
    QVERIFY(model.isLoading());
    QVERIFY(!model.canFetchMore());
    QTRY_COMPARE(model.rowCount(), 10000);
    model.setLoadAll(true);
    QTRY_COMPARE(model.rowCount(), 25000);
    QCOMPARE(model.seqAt(24999), 25000u);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(feed.reads, 3);
}

void TimelineModelTest::aFailedReadIsReported()
{
    TimelineFeed feed;
    feed.addMix(5);
    TimelineModel model(feed.reader());
    QSignalSpy failed(&model, &TimelineModel::readFailed);
    feed.failNext = true;
    model.fetchMore();
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("moatd is gone")));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.canFetchMore());  // tried again on the next fetch
    model.fetchMore();
    QCOMPARE(model.rowCount(), 5);
}

void TimelineModelTest::filterByKindAndText()
{
    TimelineFeed feed;
    feed.addMix(100);
    feed.add("approval.request", R"({"rid":"h-1","kind":"http","http":{"method":"POST","host":"api.github.com","path":"/repos/a/b/issues"}})");
    feed.add("ttl.expire", R"({"ttl":"8h","grace_seconds":10})");
    TimelineModel model(feed.reader());
    model.fetchMore();
    TimelineFilter filter;
    filter.setSourceModel(&model);
    QCOMPARE(filter.rowCount(), 102);
    filter.showOnly(EventKind::NetDenied);
    QCOMPARE(filter.rowCount(), 20);
    for (int row = 0; row < filter.rowCount(); ++row) {
        QCOMPARE(filter.data(filter.index(row, TimelineModel::TypeColumn)).toString(), QStringLiteral("net.deny"));
    }
    filter.showOnly(EventKind::Approval);
    QCOMPARE(filter.rowCount(), 1);
    filter.showOnly(EventKind::Expiry);
    QCOMPARE(filter.rowCount(), 1);
    filter.showAllKinds();
    filter.setSearchText(QStringLiteral("-J40"));  // case-insensitive, in the summary
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.data(filter.index(0, 0), TimelineModel::SeqRole).toULongLong(), 41u);
    filter.setSearchText(QStringLiteral("EXAMPLE.COM"));
    QCOMPARE(filter.rowCount(), 40);  // denied connections and DNS queries
    filter.setKindShown(EventKind::Dns, false);
    QCOMPARE(filter.rowCount(), 20);
    filter.setSearchText(QStringLiteral("secret.use"));  // the type matches too
    QCOMPARE(filter.rowCount(), 20);
    filter.setSearchText(QStringLiteral("no such text"));
    QCOMPARE(filter.rowCount(), 0);
}

void TimelineModelTest::filterFollowsAppends()
{
    TimelineFeed feed;
    feed.addMix(10);
    TimelineModel model(feed.reader());
    model.fetchMore();
    TimelineFilter filter;
    filter.setSourceModel(&model);
    filter.showOnly(EventKind::NetDenied);
    QCOMPARE(filter.rowCount(), 2);
    QSignalSpy resets(&filter, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&filter, &QAbstractItemModel::rowsInserted);
    feed.addMix(10);
    model.onEventsAppended(feed.lastSeq());
    QCOMPARE(filter.rowCount(), 4);
    QCOMPARE(resets.count(), 0);
    QVERIFY(inserted.count() >= 1);
}

void TimelineModelTest::networkCountsPerHost()
{
    TimelineFeed feed;
    feed.addMix(10);  // 2 of each
    TimelineModel model(feed.reader());
    NetworkSummaryModel network(&model);
    model.fetchMore();
    QCOMPARE(network.rowCount(), 2);
    const int github = network.rowOf(QStringLiteral("api.github.com"));
    const int example = network.rowOf(QStringLiteral("example.com"));
    QVERIFY(github >= 0 && example >= 0);
    auto cell = [&network](int row, int column) { return network.data(network.index(row, column)).toULongLong(); };
    QCOMPARE(cell(github, NetworkSummaryModel::AllowedColumn), 2u);
    QCOMPARE(cell(github, NetworkSummaryModel::DeniedColumn), 0u);
    QCOMPARE(cell(example, NetworkSummaryModel::AllowedColumn), 0u);
    QCOMPARE(cell(example, NetworkSummaryModel::DeniedColumn), 2u);
    QCOMPARE(cell(example, NetworkSummaryModel::DnsColumn), 2u);

    QSignalSpy changed(&network, &QAbstractItemModel::dataChanged);
    QSignalSpy resets(&network, &QAbstractItemModel::modelReset);
    feed.add("net.deny", R"({"host":"pypi.org","port":443,"reason":"not allowed","suggestion":"--allow-host pypi.org"})");
    feed.add("net.allow", R"({"host":"api.github.com","port":443,"rule":"--allow-host api.github.com"})");
    model.onEventsAppended(feed.lastSeq());
    QCOMPARE(network.rowCount(), 3);
    QCOMPARE(cell(network.rowOf(QStringLiteral("pypi.org")), NetworkSummaryModel::DeniedColumn), 1u);
    QCOMPARE(cell(github, NetworkSummaryModel::AllowedColumn), 3u);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(resets.count(), 0);
}

void TimelineModelTest::detailsAreReadBySeq()
{
    TimelineFeed feed;
    feed.addMix(20);
    TimelineModel model(feed.reader());
    model.fetchMore();
    QJsonObject got;
    model.readDetails(3, [&got](const QJsonObject& event) { got = event; });
    QCOMPARE(got.value(QStringLiteral("seq")).toInt(), 3);
    QCOMPARE(got.value(QStringLiteral("type")).toString(), QStringLiteral("net.deny"));
    QCOMPARE(moat::gui::allowSuggestion(got), QStringLiteral("--allow-host example.com"));
    bool called = false;
    model.readDetails(999, [&](const QJsonObject& event) {
        called = true;
        QVERIFY(event.isEmpty());
    });
    QVERIFY(called);
}

void TimelineModelTest::summariesAreOneLineOfPlainText()
{
    const QJsonObject event = QJsonDocument::fromJson(
        R"({"seq":1,"type":"exec","data":{"argv":["echo","a\nb\u001b]52;c;aGk=\u0007","\u202eevil"]}})").object();
    const EventSummary summary = summarizeEvent(event);
    QVERIFY(!summary.summary.contains(QLatin1Char('\n')));
    QVERIFY(!summary.summary.contains(QChar(0x1b)));
    QVERIFY(!summary.summary.contains(QChar(0x202e)));
    QVERIFY(summary.summary.startsWith(QStringLiteral("echo a")));
    QByteArray longArgv = R"({"seq":1,"type":"exec","data":{"argv":[")" + QByteArray(5000, 'x') + R"("]}})";
    QVERIFY(summarizeEvent(QJsonDocument::fromJson(longArgv).object()).summary.size() <= 200);
    const EventSummary deny = summarizeEvent(QJsonDocument::fromJson(
        R"({"type":"net.deny","data":{"host":"example.com","port":8443,"method":"POST","path":"/x","reason":"no rule"}})").object());
    QCOMPARE(deny.host, QStringLiteral("example.com"));
    QCOMPARE(deny.summary, QStringLiteral("example.com:8443 POST /x — no rule"));
}

void TimelineModelTest::allowSuggestion_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("suggestion");
    QTest::addColumn<QString>("offered");
    QTest::newRow("host") << "net.deny" << "--allow-host example.com" << "--allow-host example.com";
    QTest::newRow("host:port") << "net.deny" << "--allow-host example.com:8443" << "--allow-host example.com:8443";
    QTest::newRow("wildcard") << "net.deny" << "--allow-host *.example.com" << "--allow-host *.example.com";
    QTest::newRow("ipv6") << "net.deny" << "--allow-host [2001:db8::1]:443" << "--allow-host [2001:db8::1]:443";
    QTest::newRow("not denied") << "net.allow" << "--allow-host example.com" << "";
    QTest::newRow("other flag") << "net.deny" << "--net open" << "";
    QTest::newRow("two flags") << "net.deny" << "--allow-host a.com --yolo" << "";
    QTest::newRow("quote") << "net.deny" << "--allow-host a.com\"]\nyolo = true" << "";
    QTest::newRow("newline") << "net.deny" << "--allow-host a.com\n" << "";
    QTest::newRow("empty") << "net.deny" << "" << "";
}

void TimelineModelTest::allowSuggestion()
{
    QFETCH(QString, type);
    QFETCH(QString, suggestion);
    QFETCH(QString, offered);
    const QJsonObject event{{QStringLiteral("type"), type},
                            {QStringLiteral("data"), QJsonObject{{QStringLiteral("suggestion"), suggestion}}}};
    QCOMPARE(moat::gui::allowSuggestion(event), offered);
}

void TimelineModelTest::profileWriterAddsToAllowHost()
{
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("work.toml")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("# my work profile\n"
               "description = \"work\"\n"
               "allow_host = [\n"
               "  \"api.github.com\",  # the API\n"
               "  \"pypi.org\",\n"
               "]\n"
               "ttl = \"2h\"\n");
    file.close();
    ProfileRuleWriter writer(dir.path());
    const ProfileRuleWriter::Plan plan = writer.plan(QStringLiteral("work"), QStringLiteral("example.com:8443"));
    QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
    QVERIFY(!plan.creates);
    QCOMPARE(plan.newText, QStringLiteral("# my work profile\n"
                                          "description = \"work\"\n"
                                          "allow_host = [\n"
                                          "  \"api.github.com\",  # the API\n"
                                          "  \"pypi.org\", \"example.com:8443\"\n"
                                          "]\n"
                                          "ttl = \"2h\"\n"));
    QString error;
    QVERIFY(ProfileRuleWriter::apply(plan, &error));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()), plan.newText);
    file.close();
    QCOMPARE(file.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());
    // The profile loads as moat run --profile reads it, with the new host.
    const auto loaded = moat::Profile::load("work", dir.path().toStdString(), "/nonexistent");
    QVERIFY(loaded);
    QCOMPARE(loaded->flags.allowHosts.back(), std::string("example.com:8443"));
    // Asked again: already there, nothing changes.
    const ProfileRuleWriter::Plan again = writer.plan(QStringLiteral("work"), QStringLiteral("example.com:8443"));
    QVERIFY(again.alreadyThere);
}

void TimelineModelTest::profileWriterCreatesAndRefuses()
{
    QTemporaryDir dir;
    ProfileRuleWriter writer(dir.filePath(QStringLiteral("profiles")));
    ProfileRuleWriter::Plan plan = writer.plan(QStringLiteral("new-one"), QStringLiteral("example.com"));
    QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
    QVERIFY(plan.creates);
    QVERIFY(plan.newText.endsWith(QStringLiteral("allow_host = [\"example.com\"]\n")));
    QString error;
    QVERIFY(ProfileRuleWriter::apply(plan, &error));
    QVERIFY(moat::Profile::load("new-one", dir.filePath(QStringLiteral("profiles")).toStdString(), "/nonexistent"));

    // Names that are paths, and files that do not parse, are refused.
    QVERIFY(!writer.plan(QStringLiteral("../evil"), QStringLiteral("example.com")).error.isEmpty());
    QVERIFY(!writer.plan(QString(), QStringLiteral("example.com")).error.isEmpty());
    QFile broken(dir.filePath(QStringLiteral("profiles/broken.toml")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("allow_host = [\"a.com\"\n");
    broken.close();
    plan = writer.plan(QStringLiteral("broken"), QStringLiteral("example.com"));
    QVERIFY(!plan.error.isEmpty());
    QVERIFY(!ProfileRuleWriter::apply(plan, &error));
    QVERIFY(broken.open(QIODevice::ReadOnly));
    QCOMPARE(broken.readAll(), QByteArray("allow_host = [\"a.com\"\n"));  // untouched
    // A host that is not a host pattern makes an invalid profile: refused.
    QVERIFY(!writer.plan(QStringLiteral("new-one"), QStringLiteral("exa mple")).error.isEmpty());
}

QTEST_MAIN(TimelineModelTest)
#include "tst_timeline_model.moc"
