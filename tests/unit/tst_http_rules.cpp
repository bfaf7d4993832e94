// SPDX-License-Identifier: Apache-2.0
// HTTP and push rules: a rule means what docs/rules.md says it means, the
// first match wins, a host with rules denies what no rule allows, a path a
// server could read differently is refused, and a push is as strict as its
// strictest ref.
#include <QTest>

#include "policy/http_rules.h"
#include "policy/path_glob.h"

using moat::HttpRuleSet;
using moat::RefUpdate;
using moat::RuleAction;

Q_DECLARE_METATYPE(RuleAction)

namespace {

HttpRuleSet rules(const std::vector<std::string>& texts)
{
    auto set = HttpRuleSet::parse(texts);
    if (!set) {
        qFatal("rules do not parse: %s", set.error().message().c_str());
    }
    return std::move(set.value());
}

QString name(RuleAction action)
{
    return QString::fromStdString(moat::toString(action));
}

RefUpdate update(const std::string& ref)
{
    return {std::string(40, '1'), std::string(40, '2'), ref};
}

const std::vector<std::string> kGithub = {
    "GET,HEAD api.github.com /repos/o/r/issues/** allow",
    "POST api.github.com /repos/o/r/issues/*/comments ask",
    "* api.github.com /repos/o/r/** deny",
    "GET api.github.com /** allow",
};

}  // namespace

class HttpRulesTest : public QObject {
    Q_OBJECT

private slots:
    void globMatchesSegmentsAsDocumented_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("matches");
        QTest::newRow("literal") << "/a/b" << "/a/b" << true;
        QTest::newRow("literal is case-sensitive") << "/a/b" << "/A/b" << false;
        QTest::newRow("literal is whole") << "/a/b" << "/a/bc" << false;
        QTest::newRow("star within a segment") << "/a/*" << "/a/xyz" << true;
        QTest::newRow("star may be empty") << "/a/*" << "/a/" << true;
        QTest::newRow("star never crosses /") << "/a/*" << "/a/x/y" << false;
        QTest::newRow("star inside a segment") << "/a/x*z/c" << "/a/xyyz/c" << true;
        QTest::newRow("star inside a segment, no /") << "/a/x*z/c" << "/a/x/z/c" << false;
        QTest::newRow("double star crosses /") << "/a/**/d" << "/a/b/c/d" << true;
        QTest::newRow("double star may be empty") << "/a/**d" << "/a/d" << true;
        QTest::newRow("trailing /** covers the parent") << "/a/**" << "/a" << true;
        QTest::newRow("trailing /** covers below") << "/a/**" << "/a/b/c" << true;
        QTest::newRow("trailing /** is not a prefix match") << "/a/**" << "/ab" << false;
        QTest::newRow("/** covers everything") << "/**" << "/x/y" << true;
        QTest::newRow("many stars, long text, still exact")
            << "/*a*a*a*a*a*a*a*b" << ("/" + QString(5000, 'a')) << false;
    }
    void globMatchesSegmentsAsDocumented()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, text);
        QFETCH(bool, matches);
        auto glob = moat::PathGlob::parse(pattern.toStdString());
        QVERIFY(glob.ok());
        QCOMPARE(glob->matches(text.toStdString()), matches);
    }

    void requestPathIsCanonicalOrRefused_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("canonical");  // empty: refused
        QTest::newRow("plain") << "/repos/o/r" << "/repos/o/r";
        QTest::newRow("query dropped") << "/repos/o/r/issues?state=all&x=/../y" << "/repos/o/r/issues";
        QTest::newRow("unreserved decoded") << "/repos/%6F/r" << "/repos/o/r";
        QTest::newRow("other escapes upper-cased") << "/a%2cb" << "/a%2Cb";
        QTest::newRow("trailing slash kept") << "/a/" << "/a/";
        QTest::newRow("dot-dot") << "/repos/o/r/../../x" << "";
        QTest::newRow("encoded dot-dot") << "/repos/o/r/%2e%2E/x" << "";
        QTest::newRow("dot") << "/repos/./o" << "";
        QTest::newRow("empty segment") << "/repos//o" << "";
        QTest::newRow("encoded slash") << "/repos/o%2Fr" << "";
        QTest::newRow("backslash") << "/repos\\o" << "";
        QTest::newRow("encoded NUL") << "/a%00" << "";
        QTest::newRow("bad escape") << "/a%zz" << "";
        QTest::newRow("cut escape") << "/a%2" << "";
        QTest::newRow("not origin-form") << "http://x/a" << "";
        QTest::newRow("asterisk-form") << "*" << "";
        QTest::newRow("space") << "/a b" << "";
        QTest::newRow("fragment") << "/a#b" << "";
    }
    void requestPathIsCanonicalOrRefused()
    {
        QFETCH(QString, target);
        QFETCH(QString, canonical);
        auto path = moat::canonicalRequestPath(target.toStdString());
        if (canonical.isEmpty()) {
            QVERIFY2(!path.ok(), path.ok() ? path->c_str() : "");
            QVERIFY(QString::fromStdString(path.error().what).contains("is refused"));
        } else {
            QVERIFY2(path.ok(), path.ok() ? "" : path.error().what.c_str());
            QCOMPARE(QString::fromStdString(path.value()), canonical);
        }
    }

    void rulesParseToTheirCanonicalSpelling_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("simple") << "GET api.github.com /repos/** allow" << "GET api.github.com /repos/** allow";
        QTest::newRow("method case and list") << "get,Head API.github.com /x ask" << "GET,HEAD api.github.com /x ask";
        QTest::newRow("any method, tabs") << "*\tex.com\t/a  deny" << "* ex.com /a deny";
        QTest::newRow("wildcard host, port") << "PUT *.ex.com:8443 /a allow" << "PUT *.ex.com:8443 /a allow";
        QTest::newRow("escape normalised") << "GET ex.com /%7euser allow" << "GET ex.com /~user allow";
        QTest::newRow("push") << "push github.com o/r.git refs/heads/main ask"
                              << "push github.com o/r refs/heads/main ask";
        QTest::newRow("push any ref") << "push git.ex.com:8080 team/* ** allow"
                                      << "push git.ex.com:8080 team/* ** allow";
    }
    void rulesParseToTheirCanonicalSpelling()
    {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        auto set = HttpRuleSet::parse({text.toStdString()});
        QVERIFY2(set.ok(), set.ok() ? "" : set.error().message().c_str());
        QCOMPARE(QString::fromStdString(set->texts().at(0)), canonical);
        QVERIFY(HttpRuleSet::parse(set->texts()).ok());
    }

    void badRulesSayWhatIsWrong_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("says");
        QTest::newRow("three fields") << "GET ex.com allow" << "has 3 fields";
        QTest::newRow("unquoted") << "GET ex.com /a allow extra" << "has 5 fields";
        QTest::newRow("bad method") << "GE(T ex.com /a allow" << "METHOD 'GE(T'";
        QTest::newRow("empty method in list") << "GET,,HEAD ex.com /a allow" << "METHOD";
        QTest::newRow("star host") << "GET * /a allow" << "HOST '*'";
        QTest::newRow("url host") << "GET https://ex.com /a allow" << "HOST";
        QTest::newRow("relative path") << "GET ex.com a/b allow" << "does not start with '/'";
        QTest::newRow("query in path") << "GET ex.com /a?b=1 allow" << "query string";
        QTest::newRow("dot-dot path") << "GET ex.com /a/../b allow" << "'..'";
        QTest::newRow("triple star") << "GET ex.com /a/*** allow" << "'***'";
        QTest::newRow("bad action") << "GET ex.com /a permit" << "ACTION 'permit'";
        QTest::newRow("push, four fields") << "push github.com o/r allow" << "five";
        QTest::newRow("push, short ref") << "push github.com o/r main ask" << "not a full ref name";
        QTest::newRow("push, slash repo") << "push github.com /o/r refs/heads/main ask" << "REPO '/o/r'";
        QTest::newRow("push, dot-dot repo") << "push github.com o/../r refs/heads/x ask" << "REPO";
        QTest::newRow("push, bad action") << "push github.com o/r ** maybe" << "ACTION 'maybe'";
    }
    void badRulesSayWhatIsWrong()
    {
        QFETCH(QString, text);
        QFETCH(QString, says);
        auto set = HttpRuleSet::parse({"GET ok.example /fine allow", text.toStdString()});
        QVERIFY(!set.ok());
        const QString message = QString::fromStdString(set.error().message());
        QVERIFY2(message.contains("invalid rule '" + text + "'"), qPrintable(message));
        QVERIFY2(message.contains(says), qPrintable(message));
    }

    void firstMatchingRuleDecides_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("target");
        QTest::addColumn<RuleAction>("action");
        QTest::addColumn<int>("rule");  // index into kGithub, -1 for none
        QTest::newRow("read an issue") << "GET" << "/repos/o/r/issues/1" << RuleAction::Allow << 0;
        QTest::newRow("the issue list itself") << "GET" << "/repos/o/r/issues?state=open" << RuleAction::Allow << 0;
        QTest::newRow("method case") << "get" << "/repos/o/r/issues" << RuleAction::Allow << 0;
        QTest::newRow("HEAD from the list") << "HEAD" << "/repos/o/r/issues" << RuleAction::Allow << 0;
        QTest::newRow("comment asks") << "POST" << "/repos/o/r/issues/7/comments" << RuleAction::Ask << 1;
        QTest::newRow("other write denied by rule") << "PATCH" << "/repos/o/r/issues/7" << RuleAction::Deny << 2;
        QTest::newRow("other read of the repo denied") << "GET" << "/repos/o/r/hooks" << RuleAction::Deny << 2;
        QTest::newRow("GET elsewhere allowed by the last") << "GET" << "/user" << RuleAction::Allow << 3;
        QTest::newRow("POST elsewhere: no rule") << "POST" << "/user/repos" << RuleAction::Deny << -1;
        QTest::newRow("dot-dot out of the allowed tree") << "GET"
                                                         << "/repos/o/r/issues/../../x/hooks" << RuleAction::Deny << -1;
    }
    void firstMatchingRuleDecides()
    {
        QFETCH(QString, method);
        QFETCH(QString, target);
        QFETCH(RuleAction, action);
        QFETCH(int, rule);
        const HttpRuleSet set = rules(kGithub);
        const auto decision = set.decide(method.toStdString(), "api.github.com", 443, target.toStdString());
        QCOMPARE(name(decision.action), name(action));
        QCOMPARE(QString::fromStdString(decision.rule),
                 rule < 0 ? QString() : QString::fromStdString(set.texts().at(static_cast<size_t>(rule))));
        QVERIFY(!decision.reason.empty());
    }

    void hostWithRulesDeniesWhatNoRuleAllowsAndSaysWhy()
    {
        const HttpRuleSet set = rules({"GET api.github.com /repos/o/r/** allow", "GET other.example /x allow"});
        const auto decision = set.decide("DELETE", "API.github.com", 443, "/repos/o/r");
        QCOMPARE(name(decision.action), name(RuleAction::Deny));
        const QString reason = QString::fromStdString(decision.reason);
        QVERIFY2(reason.startsWith("no rule allows DELETE api.github.com/repos/o/r; rules for this host: "
                                   "'GET api.github.com /repos/o/r/** allow'"),
                 qPrintable(reason));
        QVERIFY2(!reason.contains("other.example"), qPrintable(reason));
    }

    void hostWithoutRulesIsLeftToAllowHost()
    {
        const HttpRuleSet set = rules({"GET api.github.com /x allow"});
        QVERIFY(!set.hasRulesFor("github.com", 443));
        QVERIFY(!set.hasRulesFor("api.github.com", 8443));
        const auto decision = set.decide("POST", "github.com", 443, "/anything");
        QCOMPARE(name(decision.action), name(RuleAction::Allow));
        QVERIFY(decision.rule.empty());
    }

    void hostsWithRulesListsEachPatternOnce()
    {
        const HttpRuleSet set = rules({"GET api.github.com /a allow", "push github.com o/r ** allow",
                                       "POST API.GITHUB.COM /b deny", "GET *.example.com:8443 /c allow"});
        std::vector<std::string> hosts;
        for (const auto& pattern : set.hostsWithRules()) {
            hosts.push_back(pattern.toString());
        }
        QCOMPARE(hosts, (std::vector<std::string>{"api.github.com", "github.com", "*.example.com:8443"}));
        QVERIFY(set.hasRulesFor("a.example.com", 8443));
        QVERIFY(!set.hasRulesFor("example.com", 8443));
    }

    void pushIsJudgedByItsStrictestRef()
    {
        const HttpRuleSet set = rules({
            "push github.com o/r refs/heads/main ask",
            "push github.com o/r refs/tags/** deny",
            "push github.com o/* refs/heads/** allow",
        });
        auto decide = [&](std::vector<RefUpdate> updates) { return set.decidePush("github.com", 443, "o/r", updates); };
        QCOMPARE(name(decide({update("refs/heads/feature/x")}).action), name(RuleAction::Allow));
        const auto main = decide({update("refs/heads/feature"), update("refs/heads/main")});
        QCOMPARE(name(main.action), name(RuleAction::Ask));
        QCOMPARE(QString::fromStdString(main.rule), QStringLiteral("push github.com o/r refs/heads/main ask"));
        QVERIFY2(main.reason.find("refs/heads/main") != std::string::npos, main.reason.c_str());
        QCOMPARE(name(decide({update("refs/heads/main"), update("refs/tags/v1")}).action), name(RuleAction::Deny));
        const auto unmatched = decide({update("refs/notes/commits")});
        QCOMPARE(name(unmatched.action), name(RuleAction::Deny));
        QVERIFY2(unmatched.reason.find("no push rule allows updating refs/notes/commits") != std::string::npos,
                 unmatched.reason.c_str());
        QCOMPARE(name(decide({}).action), name(RuleAction::Deny));
        // A trailing /** in REF or REPO covers what is below, not the name itself.
        QCOMPARE(name(decide({update("refs/heads")}).action), name(RuleAction::Deny));
        const HttpRuleSet team = rules({"push git.example team/** ** allow"});
        QCOMPARE(name(team.decidePush("git.example", 443, "team/a/b", {update("refs/x")}).action),
                 name(RuleAction::Allow));
        QCOMPARE(name(team.decidePush("git.example", 443, "team", {update("refs/x")}).action), name(RuleAction::Deny));
        QCOMPARE(name(set.decidePush("github.com", 443, "other/r", {update("refs/heads/x")}).action),
                 name(RuleAction::Deny));
    }

    void receivePackOnAHostWithPushRulesIsAPush()
    {
        const HttpRuleSet set = rules({"push github.com o/r ** allow", "* github.com /** allow"});
        QCOMPARE(set.pushRepository("github.com", 443, "/o/r.git/git-receive-pack").value_or("-"), std::string("o/r"));
        QCOMPARE(set.pushRepository("github.com", 443, "/o/r/git-receive-pack?x=1").value_or("-"), std::string("o/r"));
        QVERIFY(!set.pushRepository("github.com", 443, "/o/r.git/info/refs").has_value());
        QVERIFY(!set.pushRepository("gitlab.com", 443, "/o/r.git/git-receive-pack").has_value());
        // Whoever forgets to ask pushRepository() first is refused, not let
        // through by the catch-all HTTP rule.
        const auto decision = set.decide("POST", "github.com", 443, "/o/r.git/git-receive-pack");
        QCOMPARE(name(decision.action), name(RuleAction::Deny));
        QVERIFY2(decision.reason.find("git push") != std::string::npos, decision.reason.c_str());
        QCOMPARE(name(set.decide("GET", "github.com", 443, "/o/r.git/info/refs?service=git-receive-pack").action),
                 name(RuleAction::Allow));
    }

    void pushWithoutPushRulesFallsBackToHttpRules()
    {
        const HttpRuleSet set = rules({"POST git.example /team/*.git/git-receive-pack allow"});
        QVERIFY(!set.pushRepository("git.example", 443, "/team/a.git/git-receive-pack").has_value());
        QCOMPARE(name(set.decide("POST", "git.example", 443, "/team/a.git/git-receive-pack").action),
                 name(RuleAction::Allow));
        QCOMPARE(name(set.decide("POST", "git.example", 443, "/other/a.git/git-receive-pack").action),
                 name(RuleAction::Deny));
    }
};

QTEST_GUILESS_MAIN(HttpRulesTest)
#include "tst_http_rules.moc"
