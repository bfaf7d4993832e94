// SPDX-License-Identifier: Apache-2.0
#include "egressupstream.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>

#include "moatinstall.h"
#include "subprocess.h"
#include "testcertificates.h"

namespace {

const QString kGit = QStringLiteral("/usr/bin/git");

bool runGit(const QString& dir, const QStringList& args, QString* error)
{
    Subprocess::Request request;
    request.argv = QStringList{kGit} + args;
    // Neither the invoker's configuration nor the system's changes the repository.
    request.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    request.environment.insert(QStringLiteral("HOME"), dir);
    request.environment.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    request.environment.insert(QStringLiteral("GIT_CONFIG_GLOBAL"), QStringLiteral("/dev/null"));
    request.workingDirectory = dir;
    const ProcessResult result = Subprocess::run(request);
    if (!result.succeeded()) {
        *error = result.describe();
        return false;
    }
    return true;
}

int portField(const QByteArray& line, const char* name)
{
    const QRegularExpression field(QStringLiteral("\\b%1=(\\d+)").arg(QLatin1String(name)));
    const auto match = field.match(QString::fromLatin1(line));
    return match.hasMatch() ? match.captured(1).toInt() : 0;
}

}  // namespace

EgressUpstream::EgressUpstream() = default;
EgressUpstream::~EgressUpstream() = default;

bool EgressUpstream::start(const MoatInstall& install, const TestCertificates& certificates, QString* error)
{
    if (!QFile::exists(kGit)) {
        *error = QStringLiteral("git is not installed (apt-get install git)");
        return false;
    }
    dir_ = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/moat-it-upstream-XXXXXX"));
    if (!dir_->isValid()) {
        *error = QStringLiteral("cannot create a temporary directory: %1").arg(dir_->errorString());
        return false;
    }
    marker_ = "moat-it-upstream-" + QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    const QString root = dir_->path();
    const QString work = root + QStringLiteral("/work");
    if (!QDir().mkpath(root + QStringLiteral("/git")) || !QDir().mkpath(work) || !QDir().mkpath(staticDir())) {
        *error = QStringLiteral("cannot create directories under %1").arg(root);
        return false;
    }
    QFile readme(work + QStringLiteral("/README.txt"));
    if (!readme.open(QIODevice::WriteOnly) || readme.write(repositoryContent() + '\n') < 0) {
        *error = QStringLiteral("cannot write %1").arg(readme.fileName());
        return false;
    }
    readme.close();
    const QString bare = root + QStringLiteral("/git") + repositoryPath();
    const bool repository =
        runGit(root,
               {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("--bare"), QStringLiteral("-b"),
                QStringLiteral("main"), bare},
               error) &&
        runGit(work, {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("main")},
               error) &&
        runGit(work, {QStringLiteral("add"), QStringLiteral("README.txt")}, error) &&
        runGit(work,
               {QStringLiteral("-c"), QStringLiteral("user.name=moat-it"), QStringLiteral("-c"),
                QStringLiteral("user.email=moat-it@example.invalid"), QStringLiteral("commit"), QStringLiteral("-q"),
                QStringLiteral("-m"), QStringLiteral("egress test repository")},
               error) &&
        runGit(work, {QStringLiteral("push"), QStringLiteral("-q"), bare, QStringLiteral("main")}, error);
    if (!repository) {
        return false;
    }

    process_ = std::make_unique<BackgroundProcess>(
        QStringList{QStringLiteral("/usr/bin/python3"), install.tool(QStringLiteral("egress-upstream.py")),
                    QStringLiteral("--cert"), certificates.certificateFile(), QStringLiteral("--key"),
                    certificates.keyFile(), QStringLiteral("--git-root"), root + QStringLiteral("/git"),
                    QStringLiteral("--static"), staticDir(), QStringLiteral("--marker"), QString::fromLatin1(marker_),
                    QStringLiteral("--log"), root + QStringLiteral("/upstream.log")},
        QProcessEnvironment::systemEnvironment(), root);
    // The whole line: the ports may arrive in more than one read.
    if (!process_->waitForOutput("ready ") || !process_->waitForOutput("\n")) {
        *error = QStringLiteral("egress-upstream.py did not start: ") + QString::fromUtf8(process_->output());
        return false;
    }
    QByteArray ready;
    for (const QByteArray& line : process_->output().split('\n')) {
        if (line.startsWith("ready ")) {
            ready = line;
        }
    }
    ports_.http = portField(ready, "http");
    ports_.http6 = portField(ready, "http6");
    ports_.alt = portField(ready, "alt");
    ports_.alt6 = portField(ready, "alt6");
    ports_.https = portField(ready, "https");
    ports_.silent = portField(ready, "silent");
    ports_.udp = portField(ready, "udp");
    if (ports_.http == 0 || ports_.alt == 0 || ports_.https == 0 || ports_.silent == 0 || ports_.udp == 0) {
        *error = QStringLiteral("egress-upstream.py said: ") + QString::fromUtf8(ready);
        return false;
    }
    return true;
}

QString EgressUpstream::staticDir() const
{
    return dir_ ? dir_->path() + QStringLiteral("/static") : QString();
}

QString EgressUpstream::url(const QString& scheme, const QString& host, int port, const QString& path)
{
    return QStringLiteral("%1://%2:%3%4").arg(scheme, host).arg(port).arg(path);
}

QString EgressUpstream::uniquePath(const QString& label)
{
    return QStringLiteral("/%1-%2").arg(label).arg(QRandomGenerator::system()->generate64(), 0, 16);
}

QByteArray EgressUpstream::log() const
{
    if (!dir_) {
        return {};
    }
    QFile file(dir_->path() + QStringLiteral("/upstream.log"));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

int EgressUpstream::count(const QByteArray& needle) const
{
    int found = 0;
    for (const QByteArray& line : log().split('\n')) {
        if (line.contains(needle)) {
            ++found;
        }
    }
    return found;
}

bool EgressUpstream::arrived(const QString& path) const
{
    return count(" " + path.toUtf8() + " ") + count(" " + path.toUtf8() + "?") > 0;
}
