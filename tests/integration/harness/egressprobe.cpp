// SPDX-License-Identifier: Apache-2.0
#include "egressprobe.h"

#include <QRegularExpression>

#include "moatinstall.h"

EgressProbe::EgressProbe(const MoatInstall& install) : tool_(install.tool(QStringLiteral("egress-probe.py"))) {}

QStringList EgressProbe::command(const QStringList& args) const
{
    return QStringList{QStringLiteral("/usr/bin/python3"), tool_} + args;
}

QString EgressProbe::shellCommand(const QStringList& args) const
{
    return shellLine(command(args));
}

QString EgressProbe::httpProxyRequest(const QString& request, int timeoutSeconds) const
{
    return shellCommand({QStringLiteral("http"), QString::number(kHttpProxyPort), request,
                         QString::number(timeoutSeconds)});
}

QString EgressProbe::absoluteRequest(const QString& authority, const QString& path, const QString& hostHeader)
{
    return QStringLiteral("GET http://%1%2 HTTP/1.1\\r\\nHost: %3\\r\\n\\r\\n")
        .arg(authority, path, hostHeader.isEmpty() ? authority : hostHeader);
}

QString EgressProbe::attempt(const QString& label, const QString& shellLine) const
{
    return QStringLiteral("echo %1; %2\n").arg(shellQuote(QStringLiteral("== ") + label), shellLine);
}

QString EgressProbe::shellQuote(const QString& word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=@%+,-]+$"));
    if (plain.match(word).hasMatch()) {
        return word;
    }
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString EgressProbe::shellLine(const QStringList& argv)
{
    QStringList words;
    for (const QString& word : argv) {
        words.append(shellQuote(word));
    }
    return words.join(QLatin1Char(' '));
}

QString EgressProbe::value(const QByteArray& output, const QString& key)
{
    const QByteArray prefix = key.toUtf8() + ' ';
    for (const QByteArray& line : output.split('\n')) {
        if (line.startsWith(prefix)) {
            return QString::fromUtf8(line.mid(prefix.size()));
        }
        if (line == key.toUtf8()) {
            return QStringLiteral("");
        }
    }
    return {};
}

int EgressProbe::status(const QByteArray& output)
{
    return value(output, QStringLiteral("status")).toInt();
}

QMap<QString, QByteArray> EgressProbe::sections(const QByteArray& output)
{
    QMap<QString, QByteArray> parts;
    QString current;
    for (const QByteArray& line : output.split('\n')) {
        if (line.startsWith("== ")) {
            current = QString::fromUtf8(line.mid(3));
            parts.insert(current, QByteArray());
            continue;
        }
        if (!current.isNull()) {
            parts[current] += line + '\n';
        }
    }
    return parts;
}
