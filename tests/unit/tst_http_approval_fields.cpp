// SPDX-License-Identifier: Apache-2.0
// What moatd takes of a supervisor's {"t":"request","kind":"http"} before a
// person is shown it (helper/http_approval.h): the method, host, path and
// refs the agent chose are checked and bounded, the port is a port, and the
// wait ends at the supervisor's deadline but never later than moatd allows.
#include "http_approval.h"

#include <QJsonArray>
#include <QTest>

using moat::helper::httpApprovalFrom;

namespace {

QJsonObject message(const QJsonObject& http, int timeout = 60, const QString& deadline = {})
{
    QJsonObject request{{QStringLiteral("t"), QStringLiteral("request")},
                        {QStringLiteral("rid"), QStringLiteral("h-0123456789ab")},
                        {QStringLiteral("kind"), QStringLiteral("http")},
                        {QStringLiteral("http"), http},
                        {QStringLiteral("timeout_seconds"), timeout}};
    if (!deadline.isEmpty()) {
        request.insert(QStringLiteral("deadline"), deadline);
    }
    return request;
}

QJsonObject issue()
{
    return {{QStringLiteral("method"), QStringLiteral("POST")},
            {QStringLiteral("host"), QStringLiteral("api.github.com")},
            {QStringLiteral("port"), 443},
            {QStringLiteral("path"), QStringLiteral("/repos/o/r/issues")},
            {QStringLiteral("rule"), QStringLiteral("POST api.github.com /** ask")}};
}

const QDateTime kNow = QDateTime::fromString(QStringLiteral("2026-12-01T12:00:00Z"), Qt::ISODate);

}  // namespace

class HttpApprovalFields : public QObject {
    Q_OBJECT

private slots:
    void aWellFormedRequestIsKeptAsSent()
    {
        QJsonObject http = issue();
        http.insert(QStringLiteral("refs"), QJsonArray{QStringLiteral("refs/heads/main")});
        http.insert(QStringLiteral("extra"), QStringLiteral("dropped"));
        const auto approval = httpApprovalFrom(message(http), kNow, 600);
        QVERIFY2(approval, approval ? "" : approval.error().message().c_str());
        http.remove(QStringLiteral("extra"));
        QCOMPARE(approval->http, http);
        QCOMPARE(approval->expires, kNow.addSecs(60));
    }

    void theWaitIsBounded()
    {
        QCOMPARE(httpApprovalFrom(message(issue(), 100000), kNow, 600)->expires, kNow.addSecs(600));
        QCOMPARE(httpApprovalFrom(message(issue(), -5), kNow, 600)->expires, kNow.addSecs(600));
        // The supervisor's deadline, when sooner, is the one.
        QCOMPARE(httpApprovalFrom(message(issue(), 60, QStringLiteral("2026-12-01T12:00:30Z")), kNow, 600)->expires,
                 kNow.addSecs(30));
        // ... but never in the past, and never later than the timeout.
        QCOMPARE(httpApprovalFrom(message(issue(), 60, QStringLiteral("2026-12-01T11:00:00Z")), kNow, 600)->expires, kNow);
        QCOMPARE(httpApprovalFrom(message(issue(), 60, QStringLiteral("2026-12-01T13:00:00Z")), kNow, 600)->expires,
                 kNow.addSecs(60));
    }

    void malformedFieldsAreRefused_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        QTest::newRow("no method") << QStringLiteral("method") << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("method not a string") << QStringLiteral("method") << QJsonValue(7);
        QTest::newRow("long method") << QStringLiteral("method") << QJsonValue(QString(17, QLatin1Char('A')));
        QTest::newRow("long host") << QStringLiteral("host") << QJsonValue(QString(254, QLatin1Char('h')));
        QTest::newRow("long path") << QStringLiteral("path") << QJsonValue(QString(2049, QLatin1Char('p')));
        QTest::newRow("NUL in path") << QStringLiteral("path") << QJsonValue(QStringLiteral("/a") + QChar(0) + QStringLiteral("b"));
        QTest::newRow("no rule") << QStringLiteral("rule") << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("port 0") << QStringLiteral("port") << QJsonValue(0);
        QTest::newRow("port too big") << QStringLiteral("port") << QJsonValue(70000);
        QTest::newRow("port a string") << QStringLiteral("port") << QJsonValue(QStringLiteral("443"));
        QTest::newRow("refs not an array") << QStringLiteral("refs") << QJsonValue(QStringLiteral("refs/heads/main"));
        QTest::newRow("a ref not a string") << QStringLiteral("refs") << QJsonValue(QJsonArray{1});
        QJsonArray many;
        for (int i = 0; i < 33; ++i) {
            many.append(QStringLiteral("refs/heads/b%1").arg(i));
        }
        QTest::newRow("too many refs") << QStringLiteral("refs") << QJsonValue(many);
    }

    void malformedFieldsAreRefused()
    {
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QJsonObject http = issue();
        if (value.isUndefined()) {
            http.remove(field);
        } else {
            http.insert(field, value);
        }
        const auto approval = httpApprovalFrom(message(http), kNow, 600);
        QVERIFY(!approval);
        QVERIFY2(approval.error().message().find("http.") == 0, approval.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(HttpApprovalFields)
#include "tst_http_approval_fields.moc"
