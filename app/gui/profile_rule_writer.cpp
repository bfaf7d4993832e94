// SPDX-License-Identifier: Apache-2.0
#include "profile_rule_writer.h"

#include "policy/profile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include <toml++/toml.h>

namespace moat::gui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("moat::gui::ProfileRuleWriter", text);
}

// The offset in `text` of a toml++ position (1-based line and column; a
// column counts code points).
qsizetype offsetOf(const QString& text, toml::source_position at)
{
    qsizetype line = 1;
    qsizetype i = 0;
    while (i < text.size() && line < static_cast<qsizetype>(at.line)) {
        if (text.at(i++) == QLatin1Char('\n')) {
            ++line;
        }
    }
    qsizetype column = 1;
    while (i < text.size() && column < static_cast<qsizetype>(at.column)) {
        i += text.at(i).isHighSurrogate() ? 2 : 1;
        ++column;
    }
    return i;
}

QString quoted(const QString& value)
{
    // Hosts are [A-Za-z0-9.*:-[]] only (checked by the caller and again by
    // Profile::parse); nothing here needs escaping.
    return QLatin1Char('"') + value + QLatin1Char('"');
}

}  // namespace

bool ProfileRuleWriter::validProfileName(const QString& name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    return pattern.match(name).hasMatch();
}

ProfileRuleWriter::Plan ProfileRuleWriter::plan(const QString& name, const QString& allowHost) const
{
    return plan(name, QStringList{allowHost});
}

ProfileRuleWriter::Plan ProfileRuleWriter::plan(const QString& name, const QStringList& allowHosts) const
{
    Plan plan;
    if (!validProfileName(name)) {
        plan.error = tr("\"%1\" is not a profile name: use letters, digits, '.', '_' and '-'.").arg(name);
        return plan;
    }
    plan.path = QDir(dir_).filePath(name + QStringLiteral(".toml"));
    QString text;
    QFile file(plan.path);
    if (file.exists()) {
        if (!file.open(QIODevice::ReadOnly)) {
            plan.error = tr("%1 cannot be read: %2").arg(plan.path, file.errorString());
            return plan;
        }
        text = QString::fromUtf8(file.readAll());
    } else {
        plan.creates = true;
    }
    const std::string source = plan.path.toStdString();
    QStringList added;
    try {
        for (const QString& allowHost : allowHosts) {
            if (!addHost(text, allowHost, source, &plan)) {
                return plan;
            }
            if (!plan.added.isEmpty()) {
                added.append(plan.added);
            }
        }
        plan.alreadyThere = added.isEmpty();
        plan.added = added.join(QStringLiteral(", "));
        if (plan.alreadyThere) {
            plan.newText = text;
            return plan;
        }
        // Read back as `moat run --profile` reads it (a parameterized
        // profile with a stand-in value).
        const toml::table table = toml::parse(text.toStdString(), source);
        plan.parameter = QString::fromStdString(table["parameter"].value_or(std::string()));
        const auto parsed =
            Profile::parse(text.toStdString(), name.toStdString(), source,
                           table.contains("parameter") ? std::optional<std::string>("value") : std::nullopt);
        if (!parsed) {
            plan.error = tr("The profile would not be valid: %1").arg(QString::fromStdString(parsed.error().message()));
            return plan;
        }
    } catch (const toml::parse_error& error) {
        plan.error = tr("%1 is not valid TOML (%2); fix it first.")
                         .arg(plan.path, QString::fromStdString(std::string(error.description())));
        return plan;
    } catch (const std::exception& error) {
        plan.error = tr("The profile would not be valid: %1").arg(QString::fromStdString(error.what()));
        return plan;
    }
    plan.newText = text;
    return plan;
}

bool ProfileRuleWriter::addHost(QString& text, const QString& allowHost, const std::string& source, Plan* plan)
{
    plan->added.clear();
    const toml::table table = toml::parse(text.toStdString(), source);
    const toml::node* hosts = table.get("allow_host");
    if (hosts != nullptr && hosts->is_array()) {
        const toml::array& array = *hosts->as_array();
        for (const toml::node& entry : array) {
            if (entry.value<std::string>() == allowHost.toStdString()) {
                return true;  // there already: nothing added
            }
        }
        // Insert before the array's closing bracket: comments and the
        // other entries stay as the user wrote them.
        const qsizetype end = offsetOf(text, array.source().end);
        const qsizetype close = text.lastIndexOf(QLatin1Char(']'), end - 1);
        if (close < 0) {
            plan->error = tr("The allow_host list in %1 could not be located.").arg(plan->path);
            return false;
        }
        plan->added = quoted(allowHost);
        const QString separator = array.empty() ? QString() : QStringLiteral(", ");
        qsizetype at = close;
        while (at > 0 && text.at(at - 1).isSpace()) {
            --at;  // after the last entry, before any newline
        }
        const bool trailingComma = at > 0 && text.at(at - 1) == QLatin1Char(',');
        text.insert(at, (trailingComma ? QStringLiteral(" ") : separator) + plan->added);
        return true;
    }
    if (hosts != nullptr) {
        plan->error = tr("allow_host in %1 is not a list; fix the file first.").arg(plan->path);
        return false;
    }
    plan->added = QStringLiteral("allow_host = [%1]").arg(quoted(allowHost));
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('\n'))) {
        text += QLatin1Char('\n');
    }
    if (plan->creates && text.isEmpty()) {
        // A file, not the window: the same words whatever the user's language
        // (moat reads it on any machine, and a translation could hold a quote).
        text += QStringLiteral("description = \"written by moat-manager\"\n");
    }
    text += plan->added + QLatin1Char('\n');
    // Later hosts of the same plan go into this new list.
    plan->added = quoted(allowHost);
    return true;
}

bool ProfileRuleWriter::apply(const Plan& plan, QString* error)
{
    if (!plan.error.isEmpty() || plan.alreadyThere) {
        *error = plan.error;
        return plan.alreadyThere;
    }
    if (!QDir().mkpath(QFileInfo(plan.path).absolutePath())) {
        *error = tr("The profile directory for %1 cannot be made.").arg(plan.path);
        return false;
    }
    QSaveFile file(plan.path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("%1 cannot be written: %2").arg(plan.path, file.errorString());
        return false;
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(plan.newText.toUtf8());
    if (!file.commit()) {
        *error = tr("%1 cannot be written: %2").arg(plan.path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace moat::gui
