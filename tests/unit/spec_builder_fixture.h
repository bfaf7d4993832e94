// SPDX-License-Identifier: Apache-2.0
// Shared by the SpecBuilder tests: a tree of directories, symlinks and moat's
// own directories under a temporary root, and a caller environment full of
// things that must not pass.
#pragma once

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

inline std::string canonical(const QString& path)
{
    const QString resolved = QFileInfo(path).canonicalFilePath();
    return resolved.isEmpty() ? std::string("<missing: ") + path.toStdString() + ">" : resolved.toStdString();
}

const QRegularExpression kSessionName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"));

}  // namespace

class SpecBuilderFixture : public QObject {
protected:
    QTemporaryDir tmp_;
    QString root_;

    QString at(const QString& relative) const { return root_ + '/' + relative; }

    MoatPaths moatPaths() const
    {
        return MoatPaths{at("moat/config").toStdString(), at("moat/state").toStdString(),
                         at("moat/data").toStdString(), at("moat/run").toStdString()};
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

    // Called from each test's initTestCase().
    void prepareTree()
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
};
