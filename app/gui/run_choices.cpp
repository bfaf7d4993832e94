// SPDX-License-Identifier: Apache-2.0
#include "run_choices.h"

#include <QRegularExpression>

namespace moat::gui {

QStringList moatRunArguments(const RunChoices& choices)
{
    QStringList args{QStringLiteral("run")};
    auto addValue = [&args](const char* flag, const QString& value) {
        if (!value.isEmpty()) {
            args << QString::fromLatin1(flag) << value;
        }
    };
    if (choices.image != QLatin1String("host")) {
        addValue("--image", choices.image);
    }
    addValue("--workspace", choices.workspace);
    addValue("--profile", choices.profile);
    addValue("--name", choices.name);
    if (choices.yolo) {
        // --yolo is --sudo, --docker and --net open together; moat refuses
        // them beside it, so the line shows the one flag that says it all.
        args << QStringLiteral("--yolo");
    } else {
        for (const QString& host : choices.allowHosts) {
            addValue("--allow-host", host);
        }
        if (choices.sudo) {
            args << QStringLiteral("--sudo");
        }
        if (choices.docker) {
            args << QStringLiteral("--docker");
        }
        if (choices.netOrigin == ValueOrigin::User) {
            addValue("--net", choices.net);
        }
    }
    for (const QString& secret : choices.secrets) {
        addValue("--secret", secret);
    }
    if (choices.ttlOrigin == ValueOrigin::User) {
        addValue("--ttl", choices.ttl);
    }
    if (!choices.command.isEmpty()) {
        args << QStringLiteral("--") << choices.command;
    }
    return args;
}

QString shellCommandLine(const QStringList& argv)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    QStringList words;
    for (const QString& word : argv) {
        if (plain.match(word).hasMatch()) {
            words << word;
        } else {
            QString quoted = word;
            quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
            words << QLatin1Char('\'') + quoted + QLatin1Char('\'');
        }
    }
    return words.join(QLatin1Char(' '));
}

std::optional<QStringList> splitShellWords(const QString& line)
{
    QStringList words;
    QString word;
    bool inWord = false;
    enum class Quote { None, Single, Double } quote = Quote::None;
    for (qsizetype at = 0; at < line.size(); ++at) {
        const QChar c = line.at(at);
        if (quote == Quote::Single) {
            if (c == QLatin1Char('\'')) {
                quote = Quote::None;
            } else {
                word += c;
            }
            continue;
        }
        if (c == QLatin1Char('\\')) {
            if (at + 1 >= line.size()) {
                return std::nullopt;
            }
            const QChar next = line.at(++at);
            // Inside double quotes a backslash escapes only these.
            if (quote == Quote::Double && !QStringLiteral("\"\\$`\n").contains(next)) {
                word += c;
            }
            if (next != QLatin1Char('\n')) {
                word += next;
            }
            inWord = true;
            continue;
        }
        if (quote == Quote::Double) {
            if (c == QLatin1Char('"')) {
                quote = Quote::None;
            } else {
                word += c;
            }
            continue;
        }
        if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c == QLatin1Char('\'') ? Quote::Single : Quote::Double;
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord) {
                words << word;
                word.clear();
                inWord = false;
            }
        } else {
            word += c;
            inWord = true;
        }
    }
    if (quote != Quote::None) {
        return std::nullopt;
    }
    if (inWord) {
        words << word;
    }
    return words;
}

}  // namespace moat::gui
