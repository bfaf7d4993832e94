// SPDX-License-Identifier: Apache-2.0
// The agent must not read the user's secrets or write outside its workspace,
// whatever path it takes. Each attack first succeeds outside the sandbox, as
// the same user with the same command, then fails inside `moat run`.

#include "integrationfixture.h"
#include "plantedcredentials.h"
#include "processtable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <memory>

namespace {

const QString kCat = QStringLiteral("/bin/cat");

bool writeFile(const QString& path, const QByteArray& content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

uid_t ownerOf(const QString& path)
{
    struct stat info {};
    return ::lstat(path.toLocal8Bit().constData(), &info) == 0 ? info.st_uid : static_cast<uid_t>(-1);
}

}  // namespace

class FilesystemAttacks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void credentialsInRealHomeCannotBeRead_data();
    void credentialsInRealHomeCannotBeRead();
    void credentialsCannotBeReadThroughWorkspaceSymlink_data();
    void credentialsCannotBeReadThroughWorkspaceSymlink();
    void credentialsCannotBeReadThroughProc_data();
    void credentialsCannotBeReadThroughProc();
    void writesOutsideWorkspaceFail_data();
    void writesOutsideWorkspaceFail();
    void workspaceIsWritableAndIsTheWorkingDirectory_data();
    void workspaceIsWritableAndIsTheWorkingDirectory();
    void filesCreatedInWorkspaceBelongToItsOwner_data();
    void filesCreatedInWorkspaceBelongToItsOwner();
    void roPathIsReadableButNotWritable_data();
    void roPathIsReadableButNotWritable();
    void rwPathIsWritable_data();
    void rwPathIsWritable();
    void imageDirectoryBecomesTheRootFileSystem_data();
    void imageDirectoryBecomesTheRootFileSystem();

private:
    IntegrationFixture fixture_;
};

void FilesystemAttacks::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
}

void FilesystemAttacks::init()
{
    fixture_.renewWorkspaces();
}

void FilesystemAttacks::cleanupTestCase()
{
    fixture_.tearDown();
}

void FilesystemAttacks::credentialsInRealHomeCannotBeRead_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void FilesystemAttacks::credentialsInRealHomeCannotBeRead()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    PlantedCredentials credentials;
    QString error;
    QVERIFY2(credentials.plant(runner->account(), &error), qPrintable(error));

    const ProcessResult outside = runner->host({kCat, credentials.path()});
    QVERIFY2(outside.succeeded() && outside.out.contains(credentials.secret()), qPrintable(outside.describe()));

    // The same absolute path (also as root of the sandbox's own user
    // namespace), and the tilde path a hostile README would use.
    for (const QStringList& flags : {QStringList{}, QStringList{QStringLiteral("--sudo")}}) {
        const ProcessResult direct = runner->moatRun(flags, {kCat, credentials.path()});
        QVERIFY2(direct.exitCode != 0 && !direct.out.contains(credentials.secret()), qPrintable(direct.describe()));
    }
    const ProcessResult tilde = runner->moatShell({}, QStringLiteral("/bin/cat ~/.aws/credentials"));
    QVERIFY2(tilde.exitCode != 0 && !tilde.out.contains(credentials.secret()), qPrintable(tilde.describe()));
    // Nor is any credentials file to be found where homes usually are.
    const ProcessResult search = runner->moatShell(
        {}, QStringLiteral("/usr/bin/find / -maxdepth 4 -path /proc -prune -o -path /usr -prune -o -path /sys -prune "
                           "-o -name credentials -print 2>/dev/null; true"));
    QVERIFY2(search.succeeded() && !search.out.contains(".aws"), qPrintable(search.describe()));
}

void FilesystemAttacks::credentialsCannotBeReadThroughWorkspaceSymlink_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void FilesystemAttacks::credentialsCannotBeReadThroughWorkspaceSymlink()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    PlantedCredentials credentials;
    QString error;
    QVERIFY2(credentials.plant(runner->account(), &error), qPrintable(error));
    const QString link = runner->workspace() + QStringLiteral("/innocent-config");
    QVERIFY(QFile::link(credentials.path(), link));
    QVERIFY(runner->account().giveOwnership(link));

    const ProcessResult outside = runner->host({kCat, link});
    QVERIFY2(outside.succeeded() && outside.out.contains(credentials.secret()), qPrintable(outside.describe()));

    const ProcessResult inside = runner->moatRun({}, {kCat, link});
    QVERIFY2(inside.exitCode != 0 && !inside.out.contains(credentials.secret()), qPrintable(inside.describe()));
    const ProcessResult relative = runner->moatRun({}, {kCat, QStringLiteral("innocent-config")});
    QVERIFY2(relative.exitCode != 0 && !relative.out.contains(credentials.secret()),
             qPrintable(relative.describe()));
}

void FilesystemAttacks::credentialsCannotBeReadThroughProc_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void FilesystemAttacks::credentialsCannotBeReadThroughProc()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    PlantedCredentials credentials;
    QString error;
    QVERIFY2(credentials.plant(runner->account(), &error), qPrintable(error));
    // A process of the same user on the host: its /proc/PID/root is the
    // host's root directory.
    auto victim = runner->startHost({QStringLiteral("/bin/sleep"), QStringLiteral("1000")});
    QVERIFY(victim->isRunning());
    // Until setpriv has exec'd sleep, the process is not dumpable (it just
    // changed uid) and its /proc entries are closed even to its own user.
    QTRY_VERIFY_WITH_TIMEOUT(ProcessTable::commandLine(victim->pid()).startsWith("/bin/sleep"), 5000);
    const QString throughVictim = QStringLiteral("/proc/%1/root%2").arg(victim->pid()).arg(credentials.path());

    const ProcessResult outside = runner->host({kCat, throughVictim});
    QVERIFY2(outside.succeeded() && outside.out.contains(credentials.secret()), qPrintable(outside.describe()));

    for (const QString& path : {throughVictim, QStringLiteral("/proc/1/root") + credentials.path(),
                                QStringLiteral("/proc/self/root") + credentials.path()}) {
        const ProcessResult inside = runner->moatRun({}, {kCat, path});
        QVERIFY2(inside.exitCode != 0 && !inside.out.contains(credentials.secret()), qPrintable(inside.describe()));
    }
    // Any process visible inside, through its root or cwd link.
    const ProcessResult sweep = runner->moatShell(
        {}, QStringLiteral("for p in /proc/[0-9]*; do /bin/cat $p/root%1 $p/cwd%1 2>/dev/null; done; true")
                .arg(credentials.path()));
    QVERIFY2(!sweep.out.contains(credentials.secret()), qPrintable(sweep.describe()));
}

void FilesystemAttacks::writesOutsideWorkspaceFail_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QString>("parent");
    for (const char* account : {"root", "user"}) {
        for (const char* parent : {"/usr", "/etc", "~", "/"}) {
            QTest::addRow("%s:%s", account, parent) << QString::fromLatin1(account) << QString::fromLatin1(parent);
        }
    }
}

void FilesystemAttacks::writesOutsideWorkspaceFail()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, parent);
    if (parent == QLatin1String("~")) {
        parent = runner->account().home();
    }
    if (!IntegrationFixture::runningAsRoot() && parent != runner->account().home()) {
        QSKIP("planting a directory the user may write in /usr, /etc or / needs root");
    }
    // A world-writable directory there, so that only the sandbox (not file
    // permissions) can stop the write: the attack works outside for anyone.
    QTemporaryDir target(QDir(parent).filePath(QStringLiteral("moat-it-write-XXXXXX")));
    QVERIFY2(target.isValid(), qPrintable(target.errorString()));
    QVERIFY(::chmod(target.path().toLocal8Bit().constData(), 0777) == 0);

    const QString outsideFile = target.path() + QStringLiteral("/outside");
    const ProcessResult outside = runner->hostShell(QStringLiteral("echo pwned > %1").arg(outsideFile));
    QVERIFY2(outside.succeeded() && QFileInfo::exists(outsideFile), qPrintable(outside.describe()));

    // Also as root of the sandbox's own user namespace (--sudo).
    const QString insideFile = target.path() + QStringLiteral("/inside");
    for (const QStringList& flags : {QStringList{}, QStringList{QStringLiteral("--sudo")}}) {
        const ProcessResult inside = runner->moatShell(flags, QStringLiteral("echo pwned > %1").arg(insideFile));
        QVERIFY2(inside.exitCode != 0, qPrintable(inside.describe()));
        QVERIFY2(!QFileInfo::exists(insideFile), qPrintable(inside.describe()));
    }
    // Changing what is already there fails too.
    const ProcessResult append = runner->moatShell({}, QStringLiteral("echo more >> %1").arg(outsideFile));
    QVERIFY2(append.exitCode != 0, qPrintable(append.describe()));
    QFile check(outsideFile);
    QVERIFY(check.open(QIODevice::ReadOnly));
    QCOMPARE(check.readAll(), QByteArray("pwned\n"));
}

void FilesystemAttacks::workspaceIsWritableAndIsTheWorkingDirectory_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void FilesystemAttacks::workspaceIsWritableAndIsTheWorkingDirectory()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString workspace = runner->newDirectory(QStringLiteral("explicit-ws"));
    QVERIFY(!workspace.isEmpty());
    const ProcessResult inside = runner->moatShell({QStringLiteral("--workspace"), workspace},
                                                   QStringLiteral("pwd; echo made-inside > result.txt"));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QCOMPARE(inside.stdOut().trimmed(), workspace);
    QFile result(workspace + QStringLiteral("/result.txt"));
    QVERIFY(result.open(QIODevice::ReadOnly));
    QCOMPARE(result.readAll(), QByteArray("made-inside\n"));
}

void FilesystemAttacks::filesCreatedInWorkspaceBelongToItsOwner_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QString>("owner");
    QTest::newRow("root runs in moat-test's workspace") << "root"
                                                        << "user";
    QTest::newRow("root runs in root's workspace") << "root"
                                                   << "root";
    QTest::newRow("user runs in own workspace") << "user"
                                                << "user";
}

void FilesystemAttacks::filesCreatedInWorkspaceBelongToItsOwner()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, owner);
    QString why;
    AccountRunner* ownerRunner = fixture_.runner(owner, &why);
    if (!ownerRunner) {
        QSKIP(qPrintable(why));
    }
    const QString workspace = ownerRunner->newDirectory(QStringLiteral("owned-ws"));
    QVERIFY(!workspace.isEmpty());

    const ProcessResult inside =
        runner->moatShell({QStringLiteral("--workspace"), workspace},
                          QStringLiteral("/usr/bin/touch new-file && /bin/mkdir new-dir && echo x > new-dir/nested && "
                                         "[ \"$(/usr/bin/stat -c %u new-file)\" = \"$(/usr/bin/id -u)\" ] && echo "
                                         "mine-inside"));
    QVERIFY2(inside.succeeded() && inside.out.contains("mine-inside"), qPrintable(inside.describe()));
    const uid_t expected = ownerRunner->account().uid();
    for (const char* name : {"new-file", "new-dir", "new-dir/nested"}) {
        const QString path = workspace + QLatin1Char('/') + QLatin1String(name);
        QVERIFY2(QFileInfo::exists(path), qPrintable(path));
        QCOMPARE(ownerOf(path), expected);
    }
}

void FilesystemAttacks::roPathIsReadableButNotWritable_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void FilesystemAttacks::roPathIsReadableButNotWritable()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString shared = runner->newDirectory(QStringLiteral("ro"));
    QVERIFY(!shared.isEmpty());
    const QString data = shared + QStringLiteral("/data.txt");
    QVERIFY(writeFile(data, "reference data\n"));
    QVERIFY(runner->account().giveOwnership(data));

    const ProcessResult outside = runner->hostShell(QStringLiteral("echo outside >> %1").arg(data));
    QVERIFY2(outside.succeeded(), qPrintable(outside.describe()));
    QVERIFY(writeFile(data, "reference data\n"));

    const QStringList ro{QStringLiteral("--ro"), shared};
    const ProcessResult read = runner->moatRun(ro, {kCat, data});
    QVERIFY2(read.succeeded(), qPrintable(read.describe()));
    QCOMPARE(read.out, QByteArray("reference data\n"));
    for (const QString& attempt :
         {QStringLiteral("echo changed >> %1").arg(data), QStringLiteral("echo new > %1/new.txt").arg(shared),
          QStringLiteral("/bin/rm -f %1").arg(data), QStringLiteral("/bin/mkdir %1/sub").arg(shared),
          QStringLiteral("/bin/chmod 0777 %1").arg(data)}) {
        const ProcessResult write = runner->moatShell(ro, attempt);
        QVERIFY2(write.exitCode != 0, qPrintable(write.describe()));
    }
    QFile check(data);
    QVERIFY(check.open(QIODevice::ReadOnly));
    QCOMPARE(check.readAll(), QByteArray("reference data\n"));
    QVERIFY(!QFileInfo::exists(shared + QStringLiteral("/new.txt")));
    QVERIFY(!QFileInfo::exists(shared + QStringLiteral("/sub")));
    // Without the flag the path is not there at all.
    const ProcessResult hidden = runner->moatRun({}, {kCat, data});
    QVERIFY2(hidden.exitCode != 0 && !hidden.out.contains("reference"), qPrintable(hidden.describe()));
}

void FilesystemAttacks::rwPathIsWritable_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void FilesystemAttacks::rwPathIsWritable()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString cache = runner->newDirectory(QStringLiteral("rw"));
    QVERIFY(!cache.isEmpty());
    const ProcessResult inside = runner->moatShell(
        {QStringLiteral("--rw"), cache},
        QStringLiteral("echo from-sandbox > %1/made.txt && /bin/mkdir %1/sub && /bin/cat %1/made.txt").arg(cache));
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QCOMPARE(inside.out, QByteArray("from-sandbox\n"));
    QFile made(cache + QStringLiteral("/made.txt"));
    QVERIFY(made.open(QIODevice::ReadOnly));
    QCOMPARE(made.readAll(), QByteArray("from-sandbox\n"));
    QCOMPARE(ownerOf(made.fileName()), runner->account().uid());
    QVERIFY(QFileInfo(cache + QStringLiteral("/sub")).isDir());
}

void FilesystemAttacks::imageDirectoryBecomesTheRootFileSystem_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void FilesystemAttacks::imageDirectoryBecomesTheRootFileSystem()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    const QString busybox = QStringLiteral("/bin/busybox");
    if (!QFileInfo(busybox).isExecutable()) {
        QSKIP("/bin/busybox is missing: install busybox-static to build the tiny test image");
    }
    const QString image = runner->newDirectory(QStringLiteral("image"));
    QVERIFY(!image.isEmpty());
    QVERIFY(QDir().mkpath(image + QStringLiteral("/usr/bin")));
    QVERIFY(QDir().mkpath(image + QStringLiteral("/usr/share")));
    QVERIFY(QDir().mkpath(image + QStringLiteral("/etc")));  // moat synthesizes passwd, group, hosts into it
    QVERIFY(QFile::copy(busybox, image + QStringLiteral("/usr/bin/busybox")));
    QVERIFY(::chmod((image + QStringLiteral("/usr/bin/busybox")).toLocal8Bit().constData(), 0755) == 0);
    for (const char* applet : {"sh", "cat", "echo", "ls", "id", "test", "touch"}) {
        QVERIFY(QFile::link(QStringLiteral("busybox"), image + QStringLiteral("/usr/bin/") + QLatin1String(applet)));
    }
    QVERIFY(QFile::link(QStringLiteral("usr/bin"), image + QStringLiteral("/bin")));
    QVERIFY(writeFile(image + QStringLiteral("/usr/share/moat-image-marker"), "from the tiny image\n"));

    const ProcessResult inside = runner->moatRun(
        {QStringLiteral("--image"), image, QStringLiteral("--env"), QStringLiteral("PATH=/usr/bin:/bin")},
        {QStringLiteral("/usr/bin/sh"), QStringLiteral("-c"),
         QStringLiteral("cat /usr/share/moat-image-marker; test -e /usr/bin/python3 && echo host-usr-visible; "
                        "touch in-workspace && echo workspace-ok")});
    QVERIFY2(inside.succeeded(), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("from the tiny image"), qPrintable(inside.describe()));
    QVERIFY2(!inside.out.contains("host-usr-visible"), qPrintable(inside.describe()));
    QVERIFY2(inside.out.contains("workspace-ok"), qPrintable(inside.describe()));
    QVERIFY(QFileInfo::exists(runner->workspace() + QStringLiteral("/in-workspace")));
    // The image is read-only to the agent.
    const ProcessResult write = runner->moatRun(
        {QStringLiteral("--image"), image}, {QStringLiteral("/usr/bin/touch"), QStringLiteral("/usr/share/x")});
    QVERIFY2(write.exitCode != 0, qPrintable(write.describe()));
    QVERIFY(!QFileInfo::exists(image + QStringLiteral("/usr/share/x")));
}

QTEST_GUILESS_MAIN(FilesystemAttacks)
#include "tst_filesystem_attacks.moc"
