// SPDX-License-Identifier: Apache-2.0
// SpecBuilder is the gate between what a person typed and what a sandbox is:
// every host path canonical, nothing of moat's own state reachable, every bad
// flag an error that names the flag and says what to do instead.
#include "policy/spec_builder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using moat::DegradableLayer;
using moat::ExtraMount;
using moat::MoatPaths;
using moat::NetworkMode;
using moat::Result;
using moat::RunRequest;
using moat::SandboxSpec;
using moat::SpecBuilder;

using Environment = std::map<std::string, std::string>;
using StringList = std::vector<std::string>;

Q_DECLARE_METATYPE(StringList)
Q_DECLARE_METATYPE(Environment)

// The build failed, the error names the flag first and says what to do.
#define VERIFY_FLAG_ERROR(result, flag)                                                                              \
    do {                                                                                                               \
        QVERIFY2(!(result).ok(), "accepted, expected a " flag " error");                                              \
        const QString what_ = QString::fromStdString((result).error().what);                                          \
        QVERIFY2(what_.startsWith(QStringLiteral(flag ": ")), qPrintable("what does not name " flag ": " + what_));  \
        QVERIFY2(!(result).error().hint.empty(), qPrintable("no hint for: " + what_));                              \
    } while (false)

#define VERIFY_BUILT(result)                                                                                           \
    QVERIFY2((result).ok(), (result).ok() ? "" : qPrintable(QString::fromStdString((result).error().message())))

namespace {

std::string canonical(const QString& path)
{
    const QString resolved = QFileInfo(path).canonicalFilePath();
    return resolved.isEmpty() ? std::string("<missing: ") + path.toStdString() + ">" : resolved.toStdString();
}

const QRegularExpression kSessionName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"));

}  // namespace

class SpecBuilderValidation : public QObject {
    Q_OBJECT

private:
    QTemporaryDir tmp_;
    QString root_;

    QString at(const QString& relative) const { return root_ + '/' + relative; }

    MoatPaths moatPaths() const
    {
        return MoatPaths{at("moat/config").toStdString(), at("moat/state").toStdString(),
                         at("moat/data").toStdString()};
    }

    Environment callerEnvironment() const
    {
        return {{"PATH", "/usr/local/bin:/usr/bin:/bin"},
                {"TERM", "xterm-256color"},
                {"LANG", "en_GB.UTF-8"},
                {"LC_ALL", "C.UTF-8"},
                {"LC_MESSAGES", "C"},
                {"TZ", "Europe/London"},
                {"COLORTERM", "truecolor"},
                {"AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
                {"GITHUB_TOKEN", "ghp_notarealtoken"},
                {"HOME", "/home/someone"},
                {"SSH_AUTH_SOCK", "/run/user/1000/ssh-agent"},
                {"LD_PRELOAD", "/tmp/evil.so"},
                {"MOAT_SESSION", "outer-session"},
                {"DISPLAY", ":0"}};
    }

    SpecBuilder builder() const { return SpecBuilder(moatPaths(), callerEnvironment(), at("cwd").toStdString()); }

    // A request that builds: the workspace given, a command.
    RunRequest request() const
    {
        RunRequest request;
        request.workspace = at("project").toStdString();
        request.command = {"true"};
        return request;
    }

    void mkdir(const QString& relative) const { QVERIFY(QDir().mkpath(at(relative))); }
    void touch(const QString& relative) const
    {
        QFile file(at(relative));
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    void symlink(const QString& target, const QString& relativeLink) const
    {
        QVERIFY(QFile::link(target, at(relativeLink)));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        root_ = QFileInfo(tmp_.path()).canonicalFilePath();
        for (const char* dir : {"cwd/sub", "project", "data/inner", "moat/config", "moat/state/sessions/abc",
                                "moat/data/images/img/usr", "rootfs/usr", "rootfs-without-usr/etc", "rootfs-usr-file",
                                "real", "usr", "my project!", ".hidden", "caf\xc3\xa9",
                                "a-very-long-workspace-name-that-goes-on-and-on-and-on-and-on-and-on"}) {
            mkdir(QString::fromUtf8(dir));
        }
        touch("data/file.txt");
        touch("rootfs-usr-file/usr");
        symlink(at("project"), "link-to-project");
        symlink("data", "relative-link-to-data");
        symlink(at("moat/state"), "link-to-state");
        symlink(at("rootfs"), "link-to-rootfs");
        symlink(at("real"), "alias");
        // Tests must not depend on the process's own working directory.
        QVERIFY(QDir::currentPath() != at("cwd"));
    }

    // --- command and defaults ---------------------------------------------

    void emptyCommandIsAnError()
    {
        RunRequest req = request();
        req.command.clear();
        const auto spec = builder().build(req);
        QVERIFY(!spec.ok());
        QVERIFY(!spec.error().what.empty());
        QVERIFY(!spec.error().hint.empty());
    }

    void plainRequestGetsTheClosedDefaults()
    {
        RunRequest req = request();
        req.command = {"bash", "-c", "echo hi"};
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->command, (StringList{"bash", "-c", "echo hi"}));
        QCOMPARE(int(spec->image.kind), int(moat::ImageRef::Kind::Host));
        QCOMPARE(int(spec->network), int(NetworkMode::Proxy));
        QCOMPARE(spec->ttl.seconds(), std::chrono::seconds(8 * 3600));
        QVERIFY(!spec->sudo);
        QVERIFY(!spec->docker);
        QVERIFY(!spec->yolo);
        QVERIFY(!spec->localTcp);
        QVERIFY(spec->mounts.empty());
        QVERIFY(spec->explicitEnv.empty());
        QVERIFY(spec->allowDegraded.empty());
        QCOMPARE(spec->profile, std::string("default"));
        QCOMPARE(spec->flagBadges(), (StringList{"net:proxy", "ttl:8h"}));
    }

    void sessionIdIsFreshRandomHex()
    {
        const auto first = builder().build(request());
        const auto second = builder().build(request());
        VERIFY_BUILT(first);
        VERIFY_BUILT(second);
        const QRegularExpression hex(QStringLiteral("^[0-9a-f]{16}$"));
        QVERIFY(hex.match(QString::fromStdString(first->sessionId)).hasMatch());
        QVERIFY(hex.match(QString::fromStdString(second->sessionId)).hasMatch());
        QVERIFY(first->sessionId != second->sessionId);
    }

    // --- workspace ---------------------------------------------------------

    void defaultWorkspaceIsTheGivenCurrentDirectory()
    {
        RunRequest req = request();
        req.workspace.clear();
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->workspace, canonical(at("cwd")));
    }

    void workspaceIsCanonical_data()
    {
        QTest::addColumn<QString>("workspace");
        QTest::addColumn<QString>("expected");

        QTest::newRow("absolute") << at("project") << "project";
        QTest::newRow("relative to the current directory") << "sub" << "cwd/sub";
        QTest::newRow("dot-dot") << "../project" << "project";
        QTest::newRow("trailing slash and dots") << at("project/./") << "project";
        QTest::newRow("through a symlink") << at("link-to-project") << "project";
    }

    void workspaceIsCanonical()
    {
        QFETCH(QString, workspace);
        QFETCH(QString, expected);

        RunRequest req = request();
        req.workspace = workspace.toStdString();
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->workspace, canonical(at(expected)));
    }

    void unusableWorkspaceIsRefused_data()
    {
        QTest::addColumn<QString>("workspace");

        QTest::newRow("does not exist") << at("no-such-directory");
        QTest::newRow("the root directory") << "/";
        QTest::newRow("a file") << at("data/file.txt");
        QTest::newRow("moat's state directory") << at("moat/state");
        QTest::newRow("inside moat's state directory") << at("moat/state/sessions/abc");
        QTest::newRow("inside moat's data directory") << at("moat/data/images");
        QTest::newRow("moat's config directory") << at("moat/config");
        QTest::newRow("contains moat's directories") << at("moat");
        QTest::newRow("contains everything") << root_;
        QTest::newRow("symlink into moat's state") << at("link-to-state");
    }

    void unusableWorkspaceIsRefused()
    {
        QFETCH(QString, workspace);

        RunRequest req = request();
        req.workspace = workspace.toStdString();
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--workspace");
    }

    // --- --ro / --rw -------------------------------------------------------

    void mountPathsAreCanonical()
    {
        RunRequest req = request();
        req.readOnlyPaths = {"sub", at("link-to-project").toStdString(), at("relative-link-to-data").toStdString()};
        req.readWritePaths = {"../data/inner/", at("data//file.txt").toStdString()};
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        const std::vector<ExtraMount> expected = {{canonical(at("cwd/sub")), true},
                                                  {canonical(at("project")), true},
                                                  {canonical(at("data")), true},
                                                  {canonical(at("data/inner")), false},
                                                  {canonical(at("data/file.txt")), false}};
        QCOMPARE(spec->mounts, expected);
    }

    void duplicateMountsAreMerged()
    {
        RunRequest req = request();
        // One path spelt three ways, read-only.
        req.readOnlyPaths = {at("project").toStdString(), at("link-to-project").toStdString(), "../project/"};
        // Read-only and read-write of one path: read-write wins, once.
        req.readOnlyPaths.push_back(at("data").toStdString());
        req.readWritePaths = {at("relative-link-to-data").toStdString(), at("data").toStdString()};
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        const std::vector<ExtraMount> expected = {{canonical(at("project")), true}, {canonical(at("data")), false}};
        QCOMPARE(spec->mounts, expected);
    }

    void unusableMountIsRefused_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("path");

        for (const QString& flag : {QStringLiteral("--ro"), QStringLiteral("--rw")}) {
            const auto row = [&](const char* name) -> QTestData& {
                return QTest::addRow("%s %s", qPrintable(flag), name) << flag;
            };
            row("empty") << "";
            row("does not exist") << at("no-such-path");
            row("the whole host") << "/";
            row("the whole host, spelt oddly") << "/usr/..";
            row("moat's state directory") << at("moat/state");
            row("inside moat's state directory") << at("moat/state/sessions/abc");
            row("moat's config directory") << at("moat/config");
            row("inside moat's data directory") << at("moat/data/images/img");
            row("contains moat's directories") << at("moat");
            row("contains moat's directories, relative") << "..";
            row("symlink to moat's state") << at("link-to-state");
        }
    }

    void unusableMountIsRefused()
    {
        QFETCH(QString, flag);
        QFETCH(QString, path);

        RunRequest req = request();
        (flag == "--ro" ? req.readOnlyPaths : req.readWritePaths).push_back(path.toStdString());
        const auto spec = builder().build(req);
        QVERIFY(!spec.ok());
        const QString what = QString::fromStdString(spec.error().what);
        QVERIFY2(what.startsWith(flag + ": "), qPrintable(what));
        QVERIFY(!spec.error().hint.empty());
    }

    // moat's directories may not exist yet (a first run creates the state
    // directory only after the spec is built). Their paths must still be
    // compared canonically: a mount of the real directory behind a symlinked
    // HOME must be refused just like a mount of the spelt-out path.
    void moatDirsNotYetCreatedAreStillProtected_data()
    {
        QTest::addColumn<QString>("moatRoot");
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("path");

        QTest::newRow("plain path, --rw") << at("real/fresh") << "--rw" << at("real");
        QTest::newRow("behind a symlink, --rw") << at("alias/fresh") << "--rw" << at("real");
        QTest::newRow("behind a symlink, --ro") << at("alias/fresh") << "--ro" << at("real");
        QTest::newRow("behind a symlink, --workspace") << at("alias/fresh") << "--workspace" << at("real");
        QTest::newRow("with a dot-dot, --rw") << at("data/../real/fresh") << "--rw" << at("real");
    }

    void moatDirsNotYetCreatedAreStillProtected()
    {
        QFETCH(QString, moatRoot);
        QFETCH(QString, flag);
        QFETCH(QString, path);

        const MoatPaths fresh{(moatRoot + "/config/moat").toStdString(), (moatRoot + "/state/moat").toStdString(),
                              (moatRoot + "/data/moat").toStdString()};
        QVERIFY(!QFileInfo::exists(moatRoot));
        RunRequest req = request();
        if (flag == "--workspace") {
            req.workspace = path.toStdString();
        } else {
            (flag == "--ro" ? req.readOnlyPaths : req.readWritePaths).push_back(path.toStdString());
        }
        const auto spec = SpecBuilder(fresh, callerEnvironment(), at("cwd").toStdString()).build(req);
        // A moat directory that does not exist yet must still be recognised
        // through a symlink or "..": the supervisor would create the state
        // directory, events.jsonl included, inside a mount the agent can write.
        QVERIFY2(!spec.ok(), qPrintable(flag + " " + path + " accepted although moat's state would be created in it"));
        QVERIFY(QString::fromStdString(spec.error().what).startsWith(flag + ": "));
    }

    // --- environment -------------------------------------------------------

    void safeVariables_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("safe");

        for (const char* name : {"PATH", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "COLORTERM"}) {
            QTest::newRow(name) << name << true;
        }
        for (const char* name : {"AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "HOME", "USER", "SSH_AUTH_SOCK", "LD_PRELOAD",
                                 "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "MOAT_SESSION", "path", "PATHEXT", "LCALL",
                                 "lc_all", "TERMINFO", "TZDIR", ""}) {
            QTest::newRow(*name ? name : "(empty)") << name << false;
        }
    }

    void safeVariables()
    {
        QFETCH(QString, name);
        QFETCH(bool, safe);
        QCOMPARE(SpecBuilder::isSafeVariable(name.toStdString()), safe);
    }

    void onlySafeVariablesPassWithoutAsking()
    {
        const auto spec = builder().build(request());
        VERIFY_BUILT(spec);
        const Environment expected = {{"PATH", "/usr/local/bin:/usr/bin:/bin"},
                                      {"TERM", "xterm-256color"},
                                      {"LANG", "en_GB.UTF-8"},
                                      {"LC_ALL", "C.UTF-8"},
                                      {"LC_MESSAGES", "C"},
                                      {"TZ", "Europe/London"},
                                      {"COLORTERM", "truecolor"}};
        QCOMPARE(spec->environment, expected);
        QVERIFY(spec->explicitEnv.empty());
    }

    void envFlagPassesOneMore_data()
    {
        QTest::addColumn<StringList>("requested");
        QTest::addColumn<Environment>("added");

        QTest::newRow("NAME from the caller") << StringList{"AWS_SECRET_ACCESS_KEY"}
                                              << Environment{{"AWS_SECRET_ACCESS_KEY",
                                                              "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}};
        QTest::newRow("NAME=VALUE") << StringList{"FOO=bar"} << Environment{{"FOO", "bar"}};
        QTest::newRow("value holding '='") << StringList{"FOO=a=b"} << Environment{{"FOO", "a=b"}};
        QTest::newRow("empty value") << StringList{"FOO="} << Environment{{"FOO", ""}};
        QTest::newRow("value over a caller's variable") << StringList{"HOME=/elsewhere"} << Environment{{"HOME", "/elsewhere"}};
        QTest::newRow("over a safe variable") << StringList{"PATH=/opt/bin"} << Environment{{"PATH", "/opt/bin"}};
        QTest::newRow("several") << StringList{"GITHUB_TOKEN", "_X1=1"}
                                 << Environment{{"GITHUB_TOKEN", "ghp_notarealtoken"}, {"_X1", "1"}};
    }

    void envFlagPassesOneMore()
    {
        QFETCH(StringList, requested);
        QFETCH(Environment, added);

        RunRequest req = request();
        req.env = requested;
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        for (const auto& [name, value] : added) {
            QVERIFY2(spec->environment.count(name), name.c_str());
            QCOMPARE(spec->environment.at(name), value);
        }
        // Nothing else of the caller's comes along.
        QVERIFY(!spec->environment.count("SSH_AUTH_SOCK"));
        QVERIFY(!spec->environment.count("LD_PRELOAD"));
        StringList names;
        for (const auto& item : requested) {
            names.push_back(item.substr(0, item.find('=')));
        }
        QCOMPARE(spec->explicitEnv, names);
    }

    void envFlagRefusesBadNames_data()
    {
        QTest::addColumn<QString>("item");

        QTest::newRow("NAME not set anywhere") << "NOT_SET_ANYWHERE";
        QTest::newRow("MOAT_SESSION=...") << "MOAT_SESSION=forged";
        QTest::newRow("MOAT_SESSION from the caller") << "MOAT_SESSION";
        QTest::newRow("MOAT_API") << "MOAT_API=http://evil/";
        QTest::newRow("MOAT_ alone") << "MOAT_=x";
        QTest::newRow("empty") << "";
        QTest::newRow("empty name") << "=value";
        QTest::newRow("leading digit") << "1ABC=x";
        QTest::newRow("dash") << "A-B=x";
        QTest::newRow("space") << "A B=x";
        QTest::newRow("dot") << "a.b=x";
        QTest::newRow("non-ASCII") << "\xc3\x89T\xc3\x89=x";
    }

    void envFlagRefusesBadNames()
    {
        QFETCH(QString, item);

        RunRequest req = request();
        req.env = {item.toStdString()};
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--env");
    }

    // --- network, docker, yolo ---------------------------------------------

    void networkModes_data()
    {
        QTest::addColumn<QString>("net");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("mode");

        QTest::newRow("proxy") << "proxy" << true << int(NetworkMode::Proxy);
        QTest::newRow("none") << "none" << true << int(NetworkMode::None);
        QTest::newRow("open") << "open" << true << int(NetworkMode::Open);
        QTest::newRow("empty") << "" << false << 0;
        QTest::newRow("upper case") << "OPEN" << false << 0;
        QTest::newRow("host") << "host" << false << 0;
        QTest::newRow("trailing space") << "none " << false << 0;
    }

    void networkModes()
    {
        QFETCH(QString, net);
        QFETCH(bool, valid);
        QFETCH(int, mode);

        RunRequest req = request();
        req.net = net.toStdString();
        const auto spec = builder().build(req);
        if (valid) {
            VERIFY_BUILT(spec);
            QCOMPARE(int(spec->network), mode);
        } else {
            VERIFY_FLAG_ERROR(spec, "--net");
        }
    }

    void dockerIsRefused()
    {
        RunRequest req = request();
        req.docker = true;
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--docker");
    }

    void sudoAloneOpensNothingElse()
    {
        RunRequest req = request();
        req.sudo = true;
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QVERIFY(spec->sudo);
        QVERIFY(!spec->yolo);
        QCOMPARE(int(spec->network), int(NetworkMode::Proxy));
        QVERIFY(!spec->localTcp);
    }

    void yoloImpliesSudoOpenNetworkAndLocalTcp()
    {
        RunRequest req = request();
        req.yolo = true;
        req.net = "none";  // yolo opens everything, whatever else was asked
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QVERIFY(spec->yolo);
        QVERIFY(spec->sudo);
        QCOMPARE(int(spec->network), int(NetworkMode::Open));
        QVERIFY(spec->localTcp);
        // ...and the record says so.
        const auto badges = spec->flagBadges();
        QCOMPARE(badges.front(), std::string("yolo"));
        QVERIFY(std::find(badges.begin(), badges.end(), "net:open") != badges.end());
    }

    // --- ttl -----------------------------------------------------------------

    void ttlIsParsed()
    {
        RunRequest req = request();
        req.ttl = "1h30m";
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        QCOMPARE(spec->ttl.seconds(), std::chrono::seconds(5400));
    }

    void badTtlNamesTheFlag_data()
    {
        QTest::addColumn<QString>("ttl");
        for (const char* ttl : {"", "0s", "10", "5x", "-1h", "31d", "forever"}) {
            QTest::newRow(*ttl ? ttl : "(empty)") << ttl;
        }
    }

    void badTtlNamesTheFlag()
    {
        QFETCH(QString, ttl);
        RunRequest req = request();
        req.ttl = ttl.toStdString();
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--ttl");
    }

    // --- --allow-degraded ----------------------------------------------------

    void allowDegradedLists_data()
    {
        QTest::addColumn<StringList>("lists");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QList<int>>("layers");

        const int landlock = int(DegradableLayer::Landlock);
        const int seccomp = int(DegradableLayer::Seccomp);
        const int userns = int(DegradableLayer::UserNamespace);
        QTest::newRow("none") << StringList{} << true << QList<int>{};
        QTest::newRow("one") << StringList{"landlock"} << true << QList<int>{landlock};
        QTest::newRow("comma list") << StringList{"landlock,seccomp"} << true << QList<int>{landlock, seccomp};
        QTest::newRow("repeated flag") << StringList{"seccomp", "userns"} << true << QList<int>{seccomp, userns};
        QTest::newRow("all three") << StringList{"userns,landlock,seccomp"} << true
                                   << QList<int>{landlock, seccomp, userns};
        QTest::newRow("duplicate") << StringList{"seccomp,seccomp", "seccomp"} << true << QList<int>{seccomp};
        QTest::newRow("unknown") << StringList{"apparmor"} << false << QList<int>{};
        QTest::newRow("unknown in a list") << StringList{"landlock,bogus"} << false << QList<int>{};
        QTest::newRow("empty") << StringList{""} << false << QList<int>{};
        QTest::newRow("trailing comma") << StringList{"landlock,"} << false << QList<int>{};
        QTest::newRow("empty item") << StringList{"landlock,,seccomp"} << false << QList<int>{};
        QTest::newRow("space after comma") << StringList{"landlock, seccomp"} << false << QList<int>{};
        QTest::newRow("upper case") << StringList{"Landlock"} << false << QList<int>{};
        QTest::newRow("everything") << StringList{"all"} << false << QList<int>{};
    }

    void allowDegradedLists()
    {
        QFETCH(StringList, lists);
        QFETCH(bool, valid);
        QFETCH(QList<int>, layers);

        RunRequest req = request();
        req.allowDegraded = lists;
        const auto spec = builder().build(req);
        if (!valid) {
            VERIFY_FLAG_ERROR(spec, "--allow-degraded");
            return;
        }
        VERIFY_BUILT(spec);
        std::set<DegradableLayer> expected;
        for (int layer : layers) {
            expected.insert(DegradableLayer(layer));
        }
        QVERIFY(spec->allowDegraded == expected);
    }

    // --- --name --------------------------------------------------------------

    void sessionNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");

        QTest::newRow("word") << "refactor" << true;
        QTest::newRow("one character") << "a" << true;
        QTest::newRow("digits first") << "2nd-try" << true;
        QTest::newRow("dots underscores dashes") << "A.b_c-1" << true;
        QTest::newRow("63 characters") << QString(63, 'x') << true;
        QTest::newRow("64 characters") << QString(64, 'x') << false;
        QTest::newRow("leading dash") << "-rf" << false;
        QTest::newRow("leading dot") << ".hidden" << false;
        QTest::newRow("leading underscore") << "_x" << false;
        QTest::newRow("space") << "my session" << false;
        QTest::newRow("slash") << "a/b" << false;
        QTest::newRow("dot-dot") << ".." << false;
        QTest::newRow("newline") << "a\nb" << false;
        QTest::newRow("non-ASCII") << QString::fromUtf8("caf\xc3\xa9") << false;
    }

    void sessionNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);

        RunRequest req = request();
        req.name = name.toStdString();
        const auto spec = builder().build(req);
        if (valid) {
            VERIFY_BUILT(spec);
            QCOMPARE(QString::fromStdString(spec->name), name);
        } else {
            VERIFY_FLAG_ERROR(spec, "--name");
        }
    }

    void generatedNameIsWorkspaceAndIdPrefix_data()
    {
        QTest::addColumn<QString>("workspace");
        QTest::addColumn<QString>("prefix");

        QTest::newRow("plain") << "project" << "project-";
        QTest::newRow("odd characters") << "my project!" << "my-project--";
        QTest::newRow("leading dot") << ".hidden" << "session-";
        QTest::newRow("non-ASCII") << QString::fromUtf8("caf\xc3\xa9") << "caf---";
        QTest::newRow("long") << "a-very-long-workspace-name-that-goes-on-and-on-and-on-and-on-and-on"
                              << "a-very-long-workspace-name-that-goes-on--";
    }

    void generatedNameIsWorkspaceAndIdPrefix()
    {
        QFETCH(QString, workspace);
        QFETCH(QString, prefix);

        RunRequest req = request();
        req.workspace = at(workspace).toStdString();
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        const QString name = QString::fromStdString(spec->name);
        QCOMPARE(name, prefix + QString::fromStdString(spec->sessionId.substr(0, 6)));
        // A generated name is always one a person could have given with --name.
        QVERIFY2(kSessionName.match(name).hasMatch(), qPrintable(name));
    }

    // --- --image -------------------------------------------------------------

    void imageIsHostOrRootfs_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("rootfs");  // empty: host

        QTest::newRow("host") << "host" << "";
        QTest::newRow("empty means host") << "" << "";
        QTest::newRow("rootfs directory") << at("rootfs") << "rootfs";
        QTest::newRow("relative rootfs directory") << "../rootfs/" << "rootfs";
        QTest::newRow("rootfs through a symlink") << at("link-to-rootfs") << "rootfs";
        QTest::newRow("rootfs in moat's image store") << at("moat/data/images/img") << "moat/data/images/img";
    }

    void imageIsHostOrRootfs()
    {
        QFETCH(QString, image);
        QFETCH(QString, rootfs);

        RunRequest req = request();
        req.image = image.toStdString();
        const auto spec = builder().build(req);
        VERIFY_BUILT(spec);
        if (rootfs.isEmpty()) {
            QCOMPARE(int(spec->image.kind), int(moat::ImageRef::Kind::Host));
            QCOMPARE(spec->image.toString(), std::string("host"));
        } else {
            QCOMPARE(int(spec->image.kind), int(moat::ImageRef::Kind::RootfsDir));
            QCOMPARE(spec->image.path, canonical(at(rootfs)));
            QCOMPARE(spec->image.toString(), canonical(at(rootfs)));
        }
    }

    void junkImageIsRefused_data()
    {
        QTest::addColumn<QString>("image");

        QTest::newRow("does not exist") << at("no-such-image");
        QTest::newRow("name not in a store") << "debian:12";
        QTest::newRow("oci layout") << "oci:/nonexistent";
        QTest::newRow("directory without usr/") << at("rootfs-without-usr");
        QTest::newRow("usr is a file") << at("rootfs-usr-file");
        QTest::newRow("a regular file") << at("data/file.txt");
        QTest::newRow("upper-case HOST") << "HOST";
    }

    void junkImageIsRefused()
    {
        QFETCH(QString, image);

        RunRequest req = request();
        req.image = image.toStdString();
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--image");
    }

    // A rootfs image is shown to the sandbox (all but proc, dev, tmp, etc,
    // home, root, run...). One that contains moat's own directories shows
    // them: `moat run --image /` with MOAT_STATE_DIR=/var/lib/moat lets the
    // agent read every session's events.jsonl.
    void imageContainingMoatDirsIsRefused()
    {
        RunRequest req = request();
        req.image = root_.toStdString();  // holds usr/ and moat/{config,state,data}
        const auto spec = builder().build(req);
        VERIFY_FLAG_ERROR(spec, "--image");
    }
};

QTEST_GUILESS_MAIN(SpecBuilderValidation)
#include "tst_spec_builder_validation.moc"
