// SPDX-License-Identifier: Apache-2.0
// Profiles: NAME.toml from the user's config before the built-in one, every
// value checked as its flag would be, errors that name the line, merge rules
// of docs/rules.md, and the shipped github-readonly profile reading one
// repository's issues and pull requests while every write is denied.
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "policy/http_rules.h"
#include "policy/profile.h"

using moat::HttpRuleSet;
using moat::Profile;
using moat::ProfileFlags;
using moat::RuleAction;

namespace {

const std::string kBuiltin = MOAT_SOURCE_DIR "/resources/profiles";

void write(const QString& path, const std::string& text)
{
    std::ofstream file(path.toStdString());
    file << text;
}

QString message(const moat::Error& error)
{
    return QString::fromStdString(error.message());
}

HttpRuleSet readonlyRules(const std::string& repo)
{
    auto profile = Profile::load("github-readonly=" + repo, "/nonexistent", kBuiltin);
    if (!profile) {
        qFatal("github-readonly does not load: %s", profile.error().message().c_str());
    }
    auto set = HttpRuleSet::parse(profile->flags.rules);
    if (!set) {
        qFatal("github-readonly's rules do not parse: %s", set.error().message().c_str());
    }
    return std::move(set.value());
}

}  // namespace

class ProfilesTest : public QObject {
    Q_OBJECT

private slots:
    void githubReadonlyReadsOneRepositoryAndWritesNothing_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("list issues") << "GET" << "/repos/octo/hello/issues?state=all" << true;
        QTest::newRow("read an issue") << "GET" << "/repos/octo/hello/issues/1" << true;
        QTest::newRow("read its comments") << "GET" << "/repos/octo/hello/issues/1/comments" << true;
        QTest::newRow("list pull requests") << "GET" << "/repos/octo/hello/pulls" << true;
        QTest::newRow("a pull request's files") << "GET" << "/repos/octo/hello/pulls/2/files" << true;
        QTest::newRow("the repository") << "HEAD" << "/repos/octo/hello" << true;
        QTest::newRow("comment on an issue") << "POST" << "/repos/octo/hello/issues/1/comments" << false;
        QTest::newRow("open an issue") << "POST" << "/repos/octo/hello/issues" << false;
        QTest::newRow("close an issue") << "PATCH" << "/repos/octo/hello/issues/1" << false;
        QTest::newRow("merge a pull request") << "PUT" << "/repos/octo/hello/pulls/2/merge" << false;
        QTest::newRow("delete a comment") << "DELETE" << "/repos/octo/hello/issues/comments/3" << false;
        QTest::newRow("GraphQL, read or write") << "POST" << "/graphql" << false;
        QTest::newRow("another repository") << "GET" << "/repos/octo/other/issues" << false;
        QTest::newRow("a repository with a longer name") << "GET" << "/repos/octo/hello-evil/issues" << false;
        QTest::newRow("another owner") << "GET" << "/repos/evil/hello/issues" << false;
        QTest::newRow("out through dot-dot") << "GET" << "/repos/octo/hello/issues/../../other/issues" << false;
        QTest::newRow("out through %2e%2e") << "GET" << "/repos/octo/hello/issues/%2e%2e/%2e%2e/other/issues" << false;
        QTest::newRow("the repository's settings") << "GET" << "/repos/octo/hello/hooks" << false;
        QTest::newRow("search, any repository") << "GET" << "/search/issues?q=repo:evil/x" << false;
    }
    void githubReadonlyReadsOneRepositoryAndWritesNothing()
    {
        QFETCH(QString, method);
        QFETCH(QString, target);
        QFETCH(bool, allowed);
        const HttpRuleSet set = readonlyRules("octo/hello");
        QVERIFY(set.hasRulesFor("api.github.com", 443));
        const auto decision = set.decide(method.toStdString(), "api.github.com", 443, target.toStdString());
        QVERIFY2((decision.action == RuleAction::Allow) == allowed, decision.reason.c_str());
    }

    void githubReadonlySaysWhyGraphqlIsRefused()
    {
        const auto decision = readonlyRules("octo/hello").decide("POST", "api.github.com", 443, "/graphql");
        QCOMPARE(QString::fromStdString(decision.rule), QStringLiteral("POST api.github.com /graphql deny"));
    }

    void githubReadonlyNeedsARepositoryAndOnlyAPlainOne_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("says");
        QTest::newRow("no value") << "github-readonly" << "needs a value for ${repo}";
        QTest::newRow("a glob") << "github-readonly=octo/*" << "may hold only";
        QTest::newRow("a path out") << "github-readonly=octo/../x" << "segment starting with '.'";
        QTest::newRow("a leading slash") << "github-readonly=/octo/x" << "may not start";
        QTest::newRow("a space") << "github-readonly=octo/x y" << "may hold only";
    }
    void githubReadonlyNeedsARepositoryAndOnlyAPlainOne()
    {
        QFETCH(QString, spec);
        QFETCH(QString, says);
        auto profile = Profile::load(spec.toStdString(), "/nonexistent", kBuiltin);
        QVERIFY(!profile.ok());
        QVERIFY2(message(profile.error()).contains(says), qPrintable(message(profile.error())));
    }

    void theBuildTreeHasTheBuiltinProfiles()
    {
        auto profile =
            Profile::load("github-readonly=octo/hello", "/nonexistent", MOAT_BUILD_DIR "/share/moat/profiles");
        QVERIFY2(profile.ok(), profile.ok() ? "" : profile.error().message().c_str());
        QCOMPARE(profile->flags.allowHosts, std::vector<std::string>{"api.github.com"});
        QCOMPARE(profile->parameter, std::string("repo"));
    }

    void userProfileComesFirstAndABrokenOneIsNoFallback()
    {
        QTemporaryDir user;
        write(user.path() + "/github-readonly.toml", "rules = [\"GET api.github.com /rate_limit allow\"]\n");
        auto mine = Profile::load("github-readonly", user.path().toStdString(), kBuiltin);
        QVERIFY2(mine.ok(), mine.ok() ? "" : mine.error().message().c_str());
        QCOMPARE(mine->flags.rules, std::vector<std::string>{"GET api.github.com /rate_limit allow"});
        QCOMPARE(QString::fromStdString(mine->source), user.path() + "/github-readonly.toml");

        write(user.path() + "/github-readonly.toml",
              "rules = [\n  \"GET api.github.com /a allow\",\n  \"GET x\",\n]\n");
        auto broken = Profile::load("github-readonly", user.path().toStdString(), kBuiltin);
        QVERIFY(!broken.ok());
        QVERIFY2(message(broken.error()).contains("github-readonly.toml:3: rules: invalid rule 'GET x'"),
                 qPrintable(message(broken.error())));
    }

    void everyKeyIsCheckedAndUnknownOnesNameTheLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown key") << "ttl = \"1h\"\nallow_hosts = [\"x.com\"]\n"
                                     << "p.toml:2: unknown key allow_hosts";
        QTest::newRow("bad host") << "allow_host = [\"https://x.com\"]" << "p.toml:1: allow_host: invalid --allow-host";
        QTest::newRow("rules not a list") << "rules = \"GET x.com / allow\"" << "p.toml:1: rules must be a list";
        QTest::newRow("bad net") << "\n\nnet = \"wide\"" << "p.toml:3: net must be";
        QTest::newRow("bad ttl") << "ttl = \"forever\"" << "p.toml:1: ttl:";
        QTest::newRow("bad secret") << "secrets = [\"a b\"]" << "p.toml:1: secrets: 'a b' is not NAME";
        QTest::newRow("not toml") << "rules = [" << "p.toml:1:";
        QTest::newRow("stray placeholder") << "rules = [\"GET x.com /${who} allow\"]"
                                           << "p.toml:1: '${who}' is not this profile's parameter";
    }
    void everyKeyIsCheckedAndUnknownOnesNameTheLine()
    {
        QFETCH(QString, text);
        QFETCH(QString, says);
        auto profile = Profile::parse(text.toStdString(), "p", "p.toml", std::nullopt);
        QVERIFY(!profile.ok());
        QVERIFY2(message(profile.error()).contains(says), qPrintable(message(profile.error())));
    }

    void aFullProfileReadsEveryKey()
    {
        // (Not a raw string literal: moc reads "/**" in one as a comment.)
        auto profile = Profile::parse(
            "description = \"everything\"\n"
            "allow-host = [\"pypi.org\", \"*.pythonhosted.org\"]\n"
            "rules = [\"GET pypi.org /simple/** allow\", "
            "\"push github.com o/r refs/heads/** ask\"]\n"
            "secrets = [\"pypi\", \"github=GH_TOKEN\"]\n"
            "net = \"proxy\"\n"
            "ttl = \"2h\"\n",
            "full", "full.toml", std::nullopt);
        QVERIFY2(profile.ok(), profile.ok() ? "" : profile.error().message().c_str());
        QCOMPARE(profile->description, std::string("everything"));
        QCOMPARE(profile->flags.allowHosts.size(), size_t(2));
        QCOMPARE(profile->flags.rules.size(), size_t(2));
        QCOMPARE(profile->flags.secrets, (std::vector<std::string>{"pypi", "github=GH_TOKEN"}));
        QCOMPARE(profile->flags.net.value_or(""), std::string("proxy"));
        QCOMPARE(profile->flags.ttl.value_or(""), std::string("2h"));
    }

    void namesAreRestrictedAndMissingOnesListTheKnown()
    {
        for (const char* spec : {"../etc/passwd", "Github", "-x", "a_b", "", "a/b"}) {
            auto profile = Profile::load(spec, "/nonexistent", kBuiltin);
            QVERIFY2(!profile.ok(), spec);
            QVERIFY2(message(profile.error()).contains("invalid --profile"), qPrintable(message(profile.error())));
        }
        auto missing = Profile::load("nope", "/nonexistent", kBuiltin);
        QVERIFY(!missing.ok());
        QVERIFY2(message(missing.error()).contains("no profile 'nope'"), qPrintable(message(missing.error())));
        QVERIFY2(message(missing.error()).contains("Known profiles: github-readonly"),
                 qPrintable(message(missing.error())));
        auto noValue = Profile::parse("rules = []", "plain", "plain.toml", std::string("x"));
        QVERIFY(!noValue.ok());
        QVERIFY(message(noValue.error()).contains("takes no value"));
    }

    void commandLineComesFirstAndHostsAreUnioned()
    {
        ProfileFlags commandLine;
        commandLine.allowHosts = {"pypi.org", "API.github.com"};
        commandLine.rules = {"GET api.github.com /repos/o/r/issues/1 deny"};
        commandLine.secrets = {"github=MY_TOKEN"};
        commandLine.ttl = "30m";
        ProfileFlags profile;
        profile.allowHosts = {"api.github.com", "github.com"};
        profile.rules = {"GET api.github.com /repos/o/r/** allow"};
        profile.secrets = {"github=GH_TOKEN", "npm"};
        profile.net = "proxy";
        profile.ttl = "2h";
        const ProfileFlags merged = moat::mergeProfile(commandLine, profile);
        QCOMPARE(merged.allowHosts, (std::vector<std::string>{"pypi.org", "API.github.com", "github.com"}));
        QCOMPARE(merged.rules, (std::vector<std::string>{"GET api.github.com /repos/o/r/issues/1 deny",
                                                         "GET api.github.com /repos/o/r/** allow"}));
        QCOMPARE(merged.secrets, (std::vector<std::string>{"github=MY_TOKEN", "npm"}));
        QCOMPARE(merged.net.value_or(""), std::string("proxy"));
        QCOMPARE(merged.ttl.value_or(""), std::string("30m"));
        // The command line's rule comes first, so it wins for its path.
        auto set = HttpRuleSet::parse(merged.rules);
        QVERIFY(set.ok());
        QVERIFY(set->decide("GET", "api.github.com", 443, "/repos/o/r/issues/1").action == RuleAction::Deny);
        QVERIFY(set->decide("GET", "api.github.com", 443, "/repos/o/r/issues/2").action == RuleAction::Allow);
    }
};

QTEST_GUILESS_MAIN(ProfilesTest)
#include "tst_profiles.moc"
