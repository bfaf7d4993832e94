// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

class MoatInstall;

// tests/tools/egress-probe.py as a command, inside or outside the sandbox, and
// the pieces for reading what it printed. Scripts that make several attempts
// in one sandbox print "== LABEL" before each, and sections() splits the
// output again.
class EgressProbe {
public:
    // Where the sandbox's proxy listens, inside its own network namespace.
    static constexpr int kHttpProxyPort = 3128;
    static constexpr int kSocksPort = 1080;

    explicit EgressProbe(const MoatInstall& install);

    QStringList command(const QStringList& args) const;
    // The same command as one /bin/sh line.
    QString shellCommand(const QStringList& args) const;
    // A shell line that sends `request` (egress-probe.py escapes) to the
    // sandbox's HTTP proxy and prints what came back.
    QString httpProxyRequest(const QString& request, int timeoutSeconds = 30) const;
    // An absolute-form request line and Host header for the HTTP proxy.
    static QString absoluteRequest(const QString& authority, const QString& path, const QString& hostHeader = {});
    // "echo '== LABEL'; COMMAND" for one attempt of a script.
    QString attempt(const QString& label, const QString& shellLine) const;

    static QString shellQuote(const QString& word);
    static QString shellLine(const QStringList& argv);
    // The value of the probe's first "KEY VALUE" line, or a null string.
    static QString value(const QByteArray& output, const QString& key);
    // The status of the probe's "status N" line, or 0.
    static int status(const QByteArray& output);
    // Output split at "== LABEL" lines.
    static QMap<QString, QByteArray> sections(const QByteArray& output);

private:
    QString tool_;
};
