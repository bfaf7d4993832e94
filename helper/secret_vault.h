// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

namespace moat::helper {

// `moat secret`: real secrets for sessions to use by placeholder. The value
// goes into the OS keychain (QtKeychain → Secret Service, service "moat",
// key "secret/NAME") and never comes out over D-Bus; what it is bound to
// (hosts it may be sent to, headers it may fill) is kept beside the policy in
// <configDir>/secrets.json (0600), which holds no value.
//
// There is no plain-text fallback: without a keychain, setting a secret
// fails with org.moat.Error.Keychain and says how to get one.
class SecretVault : public QObject {
    Q_OBJECT

public:
    SecretVault(QString configDir, QObject* parent = nullptr);

    enum class Failure { None, InvalidArgument, Keychain, Storage };
    using Done = std::function<void(Failure failure, const QString& message)>;

    void set(const QString& name, const QString& value, const QStringList& hosts, const QStringList& headers,
             Done done);
    void remove(const QString& name, Done done);
    // {"name","hosts","headers"} per secret; never a value.
    QJsonArray list() const;

    // Checks before anything is stored; an empty string when fine.
    static QString checkName(const QString& name);
    static QString checkBinding(const QStringList& hosts, const QStringList& headers);

private:
    QString bindingsPath() const;
    QJsonArray readBindings() const;
    bool writeBindings(const QJsonArray& bindings) const;

    QString configDir_;
};

}  // namespace moat::helper
