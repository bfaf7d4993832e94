// SPDX-License-Identifier: Apache-2.0
#include "secret_vault.h"
#include "json_key.h"

#include <qt6keychain/keychain.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

#include "egress/host_pattern.h"
#include "egress/secret_names.h"

namespace moat::helper {

namespace {

const QString kService = QStringLiteral("moat");
constexpr qsizetype kMaxValue = 64 * 1024;
constexpr qsizetype kMaxBindings = 32;

QString keychainKey(const QString& name)
{
    return QStringLiteral("secret/") + name;
}

// What a person needs to hear when QtKeychain found no Secret Service.
QString keychainProblem(const QString& what)
{
    return QStringLiteral(
               "the OS keychain is not reachable (%1). moat keeps secrets only in a keychain, never in a file: start "
               "a Secret Service on this session bus and unlock it (GNOME Keyring: gnome-keyring-daemon --start "
               "--components=secrets; KDE: KWallet with Secret Service; or KeePassXC with its Secret Service "
               "integration), then try again")
        .arg(what);
}

QJsonArray toArray(const QStringList& list)
{
    QJsonArray array;
    for (const QString& item : list) {
        array.append(item);
    }
    return array;
}

}  // namespace

SecretVault::SecretVault(QString configDir, QObject* parent) : QObject(parent), configDir_(std::move(configDir)) {}

QString SecretVault::checkName(const QString& name)
{
    // A name becomes an environment variable name by default (CLI.md --secret).
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,63}$"));
    if (!pattern.match(name).hasMatch()) {
        return QStringLiteral(
                   "'%1' is not a secret name: use up to 64 letters, digits and '_', not starting with a "
                   "digit (e.g. GITHUB_TOKEN)")
            .arg(name);
    }
    return {};
}

QString SecretVault::checkBinding(const QStringList& hosts, const QStringList& headers)
{
    if (hosts.size() > kMaxBindings || headers.size() > kMaxBindings) {
        return QStringLiteral("at most %1 hosts and %1 headers per secret").arg(kMaxBindings);
    }
    for (const QString& host : hosts) {
        auto pattern = HostPattern::parse(host.toStdString());
        if (!pattern) {
            return QStringLiteral("--host %1: %2").arg(host, QString::fromStdString(pattern.error().message()));
        }
    }
    // An HTTP header name (RFC 9110 token).
    static const QRegularExpression token(QStringLiteral("^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$"));
    for (const QString& header : headers) {
        if (!token.match(header).hasMatch()) {
            return QStringLiteral("--header '%1' is not an HTTP header name (e.g. Authorization)").arg(header);
        }
    }
    return {};
}

void SecretVault::set(const QString& name, const QString& value, const QStringList& hosts, const QStringList& headers,
                      Done done)
{
    QString problem = checkName(name);
    if (problem.isEmpty()) {
        problem = checkBinding(hosts, headers);
    }
    if (problem.isEmpty() && (value.isEmpty() || value.size() > kMaxValue)) {
        problem = QStringLiteral("a secret's value must be 1 to %1 characters").arg(kMaxValue);
    }
    if (problem.isEmpty()) {
        // The same rule as `moat secret set`: the value goes into an HTTP
        // header as it is, so a CR or LF in it could add headers of its own.
        QByteArray utf8 = value.toUtf8();
        if (Status checked = checkSecretValue(std::string_view(utf8.constData(), std::size_t(utf8.size()))); !checked) {
            problem = QString::fromStdString(checked.error().what);
        }
        utf8.fill('\0');
    }
    if (!problem.isEmpty()) {
        done(Failure::InvalidArgument, problem);
        return;
    }
    auto* job = new QKeychain::WritePasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(keychainKey(name));
    job->setTextData(value);
    connect(job, &QKeychain::Job::finished, this, [this, name, hosts, headers, done](QKeychain::Job* finished) {
        if (finished->error() != QKeychain::NoError) {
            done(Failure::Keychain, keychainProblem(finished->errorString()));
            return;
        }
        QJsonArray bindings;
        for (const auto& entry : readBindings()) {
            if (entry.toObject().value(key("name")).toString() != name) {
                bindings.append(entry);
            }
        }
        bindings.append(
            QJsonObject{{key("name"), name}, {key("hosts"), toArray(hosts)}, {key("headers"), toArray(headers)}});
        if (!writeBindings(bindings)) {
            done(Failure::Storage, QStringLiteral("the value is in the keychain, but %1 could not be written; check "
                                                  "the config directory's permissions and set it again")
                                       .arg(bindingsPath()));
            return;
        }
        done(Failure::None, {});
    });
    job->start();
}

void SecretVault::remove(const QString& name, Done done)
{
    bool known = false;
    QJsonArray kept;
    for (const auto& entry : readBindings()) {
        if (entry.toObject().value(key("name")).toString() == name) {
            known = true;
        } else {
            kept.append(entry);
        }
    }
    if (!known) {
        done(Failure::InvalidArgument, QStringLiteral("no secret is named '%1' (moat secret ls lists them)").arg(name));
        return;
    }
    auto* job = new QKeychain::DeletePasswordJob(kService, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(keychainKey(name));
    connect(job, &QKeychain::Job::finished, this, [this, kept, done](QKeychain::Job* finished) {
        // Already gone from the keychain is fine: the binding goes too.
        if (finished->error() != QKeychain::NoError && finished->error() != QKeychain::EntryNotFound) {
            done(Failure::Keychain, keychainProblem(finished->errorString()));
            return;
        }
        if (!writeBindings(kept)) {
            done(Failure::Storage, QStringLiteral("cannot rewrite %1").arg(bindingsPath()));
            return;
        }
        done(Failure::None, {});
    });
    job->start();
}

QJsonArray SecretVault::list() const
{
    return readBindings();
}

QString SecretVault::bindingsPath() const
{
    return configDir_ + QStringLiteral("/secrets.json");
}

QJsonArray SecretVault::readBindings() const
{
    QFile file(bindingsPath());
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(file.read(1 << 20)).object().value(key("secrets")).toArray();
}

bool SecretVault::writeBindings(const QJsonArray& bindings) const
{
    if (!QDir().mkpath(configDir_)) {
        return false;
    }
    QSaveFile file(bindingsPath());
    if (!file.open(QIODevice::WriteOnly)) {
        return false;
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(QJsonDocument(QJsonObject{{key("secrets"), bindings}}).toJson(QJsonDocument::Indented));
    return file.commit();
}

}  // namespace moat::helper
