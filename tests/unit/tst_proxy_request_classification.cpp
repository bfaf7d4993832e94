// SPDX-License-Identifier: Apache-2.0
// ProxyRequest::classify decides what a request head sent to the HTTP proxy
// listener asks for: the control endpoint, a tunnel, a forward, or nothing
// it will serve. The agent writes the head; the listener's own address must
// never be forwarded, however it is spelt.
#include "egress/proxy_request.h"

#include <QTest>

#include <vector>

using moat::ProxyRequest;
using Kind = ProxyRequest::Kind;

Q_DECLARE_METATYPE(Kind)

class ProxyRequestClassification : public QObject {
    Q_OBJECT

private slots:
    void classifies_data();
    void classifies();
};

void ProxyRequestClassification::classifies_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QStringList>("hosts");
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<unsigned>("status");
    QTest::addColumn<QString>("host");

    QTest::newRow("CONNECT") << "CONNECT" << "example.com:443" << QStringList{"example.com:443"} << Kind::Tunnel
                             << 0u << "example.com";
    QTest::newRow("absolute form") << "GET" << "http://example.com/a?b" << QStringList{"example.com"}
                                   << Kind::Forward << 0u << "example.com";
    QTest::newRow("origin form is the control endpoint")
        << "GET" << "/v1/session" << QStringList{"127.0.0.1:3128"} << Kind::Control << 0u << "";
    QTest::newRow("the listener by address") << "GET" << "http://127.0.0.1:3128/v1/session" << QStringList{}
                                             << Kind::Control << 0u << "";
    QTest::newRow("the listener as localhost") << "GET" << "http://localhost:3128/v1/session" << QStringList{}
                                               << Kind::Control << 0u << "";
    QTest::newRow("the listener in hex") << "GET" << "http://0x7f000001:3128/v1/session" << QStringList{}
                                         << Kind::Control << 0u << "";
    QTest::newRow("the listener shortened") << "GET" << "http://127.1:3128/v1/session" << QStringList{}
                                            << Kind::Control << 0u << "";
    QTest::newRow("another port of 127.0.0.1 is a forward (the rules decide)")
        << "GET" << "http://127.0.0.1:8080/" << QStringList{} << Kind::Forward << 0u << "127.0.0.1";
    QTest::newRow("CONNECT to the listener is a tunnel (the rules decide)")
        << "CONNECT" << "127.0.0.1:3128" << QStringList{} << Kind::Tunnel << 0u << "127.0.0.1";

    QTest::newRow("Host header naming another host")
        << "GET" << "http://example.com/" << QStringList{"evil.example"} << Kind::Invalid << 400u << "";
    QTest::newRow("two Host headers") << "GET" << "http://example.com/"
                                      << QStringList{"example.com", "example.com"} << Kind::Invalid << 400u << "";
    QTest::newRow("https in absolute form") << "GET" << "https://example.com/" << QStringList{} << Kind::Invalid
                                            << 400u << "";
    QTest::newRow("asterisk") << "OPTIONS" << "*" << QStringList{} << Kind::Invalid << 400u << "";
    QTest::newRow("userinfo") << "GET" << "http://user@example.com/" << QStringList{} << Kind::Invalid << 400u
                              << "";
    QTest::newRow("target too long") << "GET" << "http://example.com/" + QString(9000, 'a') << QStringList{}
                                     << Kind::Invalid << 414u << "";
}

void ProxyRequestClassification::classifies()
{
    QFETCH(QString, method);
    QFETCH(QString, target);
    QFETCH(QStringList, hosts);
    QFETCH(Kind, kind);
    QFETCH(unsigned, status);
    QFETCH(QString, host);

    const std::string methodText = method.toStdString();
    const std::string targetText = target.toStdString();
    std::vector<std::string> hostTexts;
    for (const QString& h : hosts) {
        hostTexts.push_back(h.toStdString());
    }
    std::vector<std::string_view> hostViews(hostTexts.begin(), hostTexts.end());

    const auto classified = ProxyRequest::classify(methodText, targetText, hostViews, 3128);
    QCOMPARE(classified.kind, kind);
    if (kind == Kind::Invalid) {
        QCOMPARE(classified.status, status);
        QVERIFY(!classified.problem.empty());
        QVERIFY(!classified.target);
        return;
    }
    QVERIFY(classified.target.has_value());
    if (kind != Kind::Control) {
        QCOMPARE(QString::fromStdString(classified.target->host()), host);
    }
}

QTEST_APPLESS_MAIN(ProxyRequestClassification)
#include "tst_proxy_request_classification.moc"
