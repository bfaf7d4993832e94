// SPDX-License-Identifier: Apache-2.0
// moat secret set/ls/rm against a real gnome-keyring on a private session
// bus, as root and as an ordinary user: through moatd (activated on that
// bus) and without it (moat talks to the Secret Service itself). Both paths
// share one store; ls never prints a value; bad input stores nothing; with
// no keychain, moat says how to get one and stores nothing.
#include "integrationfixture.h"
#include "moatdbus.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <unistd.h>

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A value no test output could contain by chance.
QByteArray secretValue(const char* label)
{
    return QByteArrayLiteral("real-") + label + "-" + QByteArray::number(::getpid()) + "-Zq8sW2xk";
}

}  // namespace

class SecretsCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void setListRemove_data();
    void setListRemove();
    void bothPathsShareOneStore_data();
    void bothPathsShareOneStore();
    void badInputStoresNothing_data();
    void badInputStoresNothing();
    void withoutAKeychainNothingIsStored_data();
    void withoutAKeychainNothingIsStored();

private:
    QString secretBook() const { return fixture_.install().tool(QStringLiteral("secret-book")); }
    // `moat secret ARGS` on `bus` (none: no session bus at all), value on stdin.
    ProcessResult secret(AccountRunner* runner, const MoatdBus* bus, const QStringList& args,
                         const QByteArray& input = {}) const;
    // tests/tools/secret-book fetch NAME, the expected value on stdin.
    QJsonObject fetch(AccountRunner* runner, const MoatdBus& bus, const QString& name, const QByteArray& value,
                      ProcessResult* result = nullptr) const;
    // No file under the runner's config and state directories holds `value`.
    static bool nowhereOnDisk(AccountRunner* runner, const QByteArray& value, QString* where);
    IntegrationFixture fixture_;
};

void SecretsCli::initTestCase()
{
    QString error;
    QVERIFY2(fixture_.setUp(&error), qPrintable(error));
    // Beside moat-keychain.so, where SecretBook finds its module.
    const QString copy = secretBook();
    QFile::remove(copy);
    QVERIFY(QFile::copy(QStringLiteral(MOAT_SECRET_BOOK), copy));
    QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                            QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther));
}

void SecretsCli::init()
{
    fixture_.renewWorkspaces();
    // Each test starts with no bindings (each bus brings a fresh keyring).
    for (AccountRunner* runner : {fixture_.root(), fixture_.user()}) {
        if (runner) {
            QFile::remove(runner->configDir() + QStringLiteral("/secrets.json"));
        }
    }
}

void SecretsCli::cleanupTestCase()
{
    fixture_.tearDown();
}

ProcessResult SecretsCli::secret(AccountRunner* runner, const MoatdBus* bus, const QStringList& args,
                                 const QByteArray& input) const
{
    RunOptions options;
    if (bus) {
        options.environment = bus->environment();
    }
    options.input = input;
    options.feedInput = true;
    options.timeoutMs = 60000;
    return runner->moat(QStringList{QStringLiteral("secret")} + args, options);
}

QJsonObject SecretsCli::fetch(AccountRunner* runner, const MoatdBus& bus, const QString& name,
                              const QByteArray& value, ProcessResult* result) const
{
    RunOptions options;
    options.environment = bus.environment();
    options.input = value;
    options.feedInput = true;
    const ProcessResult run = runner->host({secretBook(), QStringLiteral("fetch"), name}, options);
    if (result) {
        *result = run;
    }
    return QJsonDocument::fromJson(run.out).object();
}

bool SecretsCli::nowhereOnDisk(AccountRunner* runner, const QByteArray& value, QString* where)
{
    for (const QString& dir : {runner->configDir(), runner->stateDir()}) {
        QDirIterator files(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString file = files.next();
            if (readAll(file).contains(value)) {
                *where = file;
                return false;
            }
        }
    }
    return true;
}

#define MOAT_NEED_BUS()                                                         \
    if (const QString missing = MoatdBus::missingPieces(); !missing.isEmpty()) \
        QSKIP(qPrintable(missing))

void SecretsCli::setListRemove_data()
{
    IntegrationFixture::addAccountColumn();
    QTest::addColumn<bool>("moatd");
    for (const char* account : {"root", "user"}) {
        QTest::newRow(qPrintable(QStringLiteral("%1, through moatd").arg(QLatin1String(account))))
            << QString::fromLatin1(account) << true;
        QTest::newRow(qPrintable(QStringLiteral("%1, without moatd").arg(QLatin1String(account))))
            << QString::fromLatin1(account) << false;
    }
}

void SecretsCli::setListRemove()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(bool, moatd);
    MOAT_NEED_BUS();
    MoatdBus bus(runner);
    bus.setMoatdActivatable(moatd);
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));

    const QByteArray token = secretValue("token");
    const QByteArray key = secretValue("key");
    // One trailing newline is not part of the value (echo adds one).
    ProcessResult set = secret(runner, &bus, {"set", "GITHUB_TOKEN", "--host", "api.github.com"}, token + "\n");
    QVERIFY2(set.succeeded(), qPrintable(set.describe()));
    set = secret(runner, &bus,
                 {"set", "OPENAI_KEY", "--host", "api.openai.com", "--host", "*.openai.azure.com", "--header",
                  "X-Api-Key", "--header", "Authorization"},
                 key);
    QVERIFY2(set.succeeded(), qPrintable(set.describe()));
    QVERIFY2(!set.out.contains(key) && !set.err.contains(key), qPrintable(set.describe()));
    // The path taken: moatd was started by activation only when it could be.
    QCOMPARE(bus.moatdPid() != 0, moatd);

    const ProcessResult ls = secret(runner, &bus, {"ls"});
    QVERIFY2(ls.succeeded(), qPrintable(ls.describe()));
    QVERIFY2(ls.stdOut().contains(QStringLiteral("GITHUB_TOKEN")) && ls.stdOut().contains(QStringLiteral("api.github.com")) &&
                 ls.stdOut().contains(QStringLiteral("*.openai.azure.com")) && ls.stdOut().contains(QStringLiteral("X-Api-Key")),
             qPrintable(ls.describe()));
    const ProcessResult json = secret(runner, &bus, {"ls", "--json"});
    QVERIFY2(json.succeeded(), qPrintable(json.describe()));
    const QJsonArray listed = QJsonDocument::fromJson(json.out).array();
    QCOMPARE(listed.size(), 2);
    QCOMPARE(listed[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("GITHUB_TOKEN"));
    // No --header: the value goes into Authorization.
    QCOMPARE(listed[0].toObject().value(QStringLiteral("headers")).toArray(),
             QJsonArray({QStringLiteral("Authorization")}));
    QCOMPARE(listed[1].toObject().value(QStringLiteral("hosts")).toArray(),
             QJsonArray({QStringLiteral("api.openai.com"), QStringLiteral("*.openai.azure.com")}));
    for (const ProcessResult& listing : {ls, json}) {
        QVERIFY2(!listing.out.contains(token) && !listing.out.contains(key) && !listing.err.contains(token) &&
                     !listing.err.contains(key),
                 qPrintable(listing.describe()));
    }
    QString where;
    QVERIFY2(nowhereOnDisk(runner, token, &where) && nowhereOnDisk(runner, key, &where), qPrintable(where));

    // What a session will be given: the value as set, without the newline.
    ProcessResult fetched;
    QJsonObject found = fetch(runner, bus, QStringLiteral("GITHUB_TOKEN"), token, &fetched);
    QVERIFY2(found.value(QStringLiteral("match")).toBool(), qPrintable(fetched.describe()));
    QVERIFY(found.value(QStringLiteral("locked_bytes")).toInt() > 0);

    // Set again: value and bindings replaced, not added.
    const QByteArray rotated = secretValue("rotated");
    set = secret(runner, &bus, {"set", "GITHUB_TOKEN", "--host", "github.com"}, rotated);
    QVERIFY2(set.succeeded(), qPrintable(set.describe()));
    found = fetch(runner, bus, QStringLiteral("GITHUB_TOKEN"), rotated, &fetched);
    QVERIFY2(found.value(QStringLiteral("match")).toBool(), qPrintable(fetched.describe()));
    QCOMPARE(found.value(QStringLiteral("hosts")).toArray(), QJsonArray({QStringLiteral("github.com")}));

    const ProcessResult rm = secret(runner, &bus, {"rm", "GITHUB_TOKEN"});
    QVERIFY2(rm.succeeded(), qPrintable(rm.describe()));
    fetch(runner, bus, QStringLiteral("GITHUB_TOKEN"), rotated, &fetched);
    QVERIFY2(fetched.exitCode == 1 && fetched.stdErr().contains(QStringLiteral("no secret is named")),
             qPrintable(fetched.describe()));
    const QJsonArray left = QJsonDocument::fromJson(secret(runner, &bus, {"ls", "--json"}).out).array();
    QCOMPARE(left.size(), 1);
    QCOMPARE(left[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("OPENAI_KEY"));
    const ProcessResult again = secret(runner, &bus, {"rm", "GITHUB_TOKEN"});
    QCOMPARE(again.exitCode, 125);
    QVERIFY2(again.stdErr().contains(QStringLiteral("no secret is named 'GITHUB_TOKEN'")), qPrintable(again.describe()));
}

void SecretsCli::bothPathsShareOneStore_data()
{
    IntegrationFixture::addAccountColumn();
    IntegrationFixture::addAccountRows();
}

void SecretsCli::bothPathsShareOneStore()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    MOAT_NEED_BUS();
    MoatdBus bus(runner);
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));

    // Stored without moatd (SecretBook, as moat does when moatd is absent)...
    const QByteArray value = secretValue("shared");
    RunOptions options;
    options.environment = bus.environment();
    options.input = value;
    options.feedInput = true;
    const ProcessResult direct =
        runner->host({secretBook(), QStringLiteral("set"), QStringLiteral("SHARED"), QStringLiteral("example.com")},
                     options);
    QVERIFY2(direct.succeeded(), qPrintable(direct.describe()));
    QCOMPARE(bus.moatdPid(), 0);
    // ...listed and removed through moatd...
    const QJsonArray listed = QJsonDocument::fromJson(secret(runner, &bus, {"ls", "--json"}).out).array();
    QVERIFY(bus.moatdPid() != 0);
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("SHARED"));
    // ...and one set through moatd is what the direct path fetches.
    const QByteArray other = secretValue("other");
    const ProcessResult set = secret(runner, &bus, {"set", "OTHER", "--host", "example.org"}, other);
    QVERIFY2(set.succeeded(), qPrintable(set.describe()));
    ProcessResult fetched;
    QVERIFY2(fetch(runner, bus, QStringLiteral("OTHER"), other, &fetched).value(QStringLiteral("match")).toBool(),
             qPrintable(fetched.describe()));
    const ProcessResult rm = secret(runner, &bus, {"rm", "SHARED"});
    QVERIFY2(rm.succeeded(), qPrintable(rm.describe()));
    fetch(runner, bus, QStringLiteral("SHARED"), value, &fetched);
    QVERIFY2(fetched.exitCode == 1, qPrintable(fetched.describe()));
}

void SecretsCli::badInputStoresNothing_data()
{
    IntegrationFixture::addAccountColumn();
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("said");
    const struct {
        const char* row;
        QStringList args;
        QByteArray value;
        const char* said;
    } rows[] = {
        {"name starting with a digit", {"set", "1TOKEN", "--host", "a.example"}, "v", "is not a secret name"},
        {"name with a dash", {"set", "MY-TOKEN", "--host", "a.example"}, "v", "is not a secret name"},
        {"no host", {"set", "TOKEN"}, "v", "needs at least one --host"},
        {"a URL as host", {"set", "TOKEN", "--host", "https://a.example/"}, "v", "--host"},
        {"a bare wildcard", {"set", "TOKEN", "--host", "*"}, "v", "--host"},
        {"a bad header", {"set", "TOKEN", "--host", "a.example", "--header", "X Api"}, "v", "not an HTTP header name"},
        {"an empty value", {"set", "TOKEN", "--host", "a.example"}, "\n", "no value on stdin"},
        {"two lines", {"set", "TOKEN", "--host", "a.example"}, "line1\nline2\n", "control character"},
        {"too long", {"set", "TOKEN", "--host", "a.example"}, QByteArray(64 * 1024 + 1, 'x'), "longer than"},
        {"rm of a bad name", {"rm", "../x"}, "", "is not a secret name"},
    };
    for (const char* account : {"root", "user"}) {
        for (const auto& row : rows) {
            QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(QLatin1String(account), QLatin1String(row.row))))
                << QString::fromLatin1(account) << row.args << row.value << QString::fromLatin1(row.said);
        }
    }
}

void SecretsCli::badInputStoresNothing()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QStringList, args);
    QFETCH(QByteArray, value);
    QFETCH(QString, said);
    MOAT_NEED_BUS();
    MoatdBus bus(runner);
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    const ProcessResult refused = secret(runner, &bus, args, value);
    QCOMPARE(refused.exitCode, 125);
    QVERIFY2(refused.stdErr().contains(said), qPrintable(refused.describe()));
    // Checked before anything was sent anywhere: moatd was never even started.
    QCOMPARE(bus.moatdPid(), 0);
    QVERIFY(!QFile::exists(runner->configDir() + QStringLiteral("/secrets.json")));
    const ProcessResult ls = secret(runner, &bus, {"ls", "--json"});
    QCOMPARE(QJsonDocument::fromJson(ls.out).array().size(), 0);
}

void SecretsCli::withoutAKeychainNothingIsStored_data()
{
    IntegrationFixture::addAccountColumn();
    QTest::addColumn<QString>("bus");
    for (const char* account : {"root", "user"}) {
        for (const char* bus : {"no bus", "a bus without a keyring", "moatd without a keyring"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(QLatin1String(account), QLatin1String(bus))))
                << QString::fromLatin1(account) << QString::fromLatin1(bus);
        }
    }
}

void SecretsCli::withoutAKeychainNothingIsStored()
{
    MOAT_FETCH_RUNNER(fixture_, runner);
    QFETCH(QString, bus);
    MOAT_NEED_BUS();
    MoatdBus privateBus(runner);
    const MoatdBus* used = nullptr;
    if (bus != QStringLiteral("no bus")) {
        privateBus.setKeyring(false);
        privateBus.setMoatdActivatable(bus.startsWith(QStringLiteral("moatd")));
        QString error;
        QVERIFY2(privateBus.start(&error), qPrintable(error));
        used = &privateBus;
    }
    const QByteArray value = secretValue("nokeychain");
    const ProcessResult set = secret(runner, used, {"set", "TOKEN", "--host", "api.example.com"}, value);
    QCOMPARE(set.exitCode, 125);
    QVERIFY2(set.stdErr().contains(QStringLiteral("keychain")) &&
                 set.stdErr().contains(QStringLiteral("gnome-keyring-daemon")),
             qPrintable(set.describe()));
    QVERIFY2(!set.out.contains(value) && !set.err.contains(value), qPrintable(set.describe()));
    // No plain-text fallback: nothing was written anywhere of moat's.
    QVERIFY(!QFile::exists(runner->configDir() + QStringLiteral("/secrets.json")));
    QString where;
    QVERIFY2(nowhereOnDisk(runner, value, &where), qPrintable(where));
    const ProcessResult ls = secret(runner, used, {"ls", "--json"});
    QVERIFY2(ls.succeeded(), qPrintable(ls.describe()));
    QCOMPARE(QJsonDocument::fromJson(ls.out).array().size(), 0);
}

QTEST_GUILESS_MAIN(SecretsCli)
#include "tst_secrets_cli.moc"
