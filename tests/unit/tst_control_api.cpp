// SPDX-License-Identifier: Apache-2.0
// The control endpoint ($MOAT_API) shows the agent its own session and
// nothing else: read-only, unknown paths answered 404 with the agent's text
// kept short.
#include "egress/control_api.h"

#include <QTest>

class ControlApi : public QObject {
    Q_OBJECT

private slots:
    void sessionIsShown();
    void sessionIsReadOnly();
    void unknownPathIs404();
    void onlyPostMakesAnEscalationRequest();
};

void ControlApi::sessionIsShown()
{
    const nlohmann::json session = {{"id", "abc"}, {"flags", {"net:proxy"}}, {"expires", "2026-12-01T13:00:00Z"}};
    const auto answer = moat::answerControlRequest("GET", "/v1/session?verbose=1", session);
    QCOMPARE(answer.status, 200u);
    QVERIFY(answer.body == session);
}

void ControlApi::sessionIsReadOnly()
{
    for (const char* method : {"POST", "PUT", "DELETE", "PATCH"}) {
        const auto answer = moat::answerControlRequest(method, "/v1/session", {{"id", "abc"}});
        QCOMPARE(answer.status, 405u);
        QVERIFY(answer.body.contains("error"));
        QVERIFY(!answer.body.contains("id"));
    }
}

void ControlApi::unknownPathIs404()
{
    const std::string longPath = "/" + std::string(5000, 'x');
    const auto answer = moat::answerControlRequest("GET", longPath, {{"id", "abc"}});
    QCOMPARE(answer.status, 404u);
    QVERIFY(answer.body["error"].get<std::string>().size() < 300);
}

void ControlApi::onlyPostMakesAnEscalationRequest()
{
    QVERIFY(moat::isEscalationRequest("POST", "/v1/requests"));
    QVERIFY(moat::isEscalationRequest("POST", "/v1/requests?timeout=30"));
    QVERIFY(!moat::isEscalationRequest("POST", "/v1/requests/x"));
    QVERIFY(!moat::isEscalationRequest("POST", "/v1/session"));
    QVERIFY(!moat::isEscalationRequest("GET", "/v1/requests"));
    // Any other method on it is answered here, at once.
    const auto answer = moat::answerControlRequest("GET", "/v1/requests", {{"id", "abc"}});
    QCOMPARE(answer.status, 405u);
    QVERIFY(answer.body["error"].get<std::string>().find("POST") != std::string::npos);
}

QTEST_APPLESS_MAIN(ControlApi)
#include "tst_control_api.moc"
