// SPDX-License-Identifier: Apache-2.0
#include "egresssandbox.h"

#include "accountrunner.h"
#include "moatinstall.h"
#include "testcertificates.h"

EgressSandbox::EgressSandbox(const MoatInstall& install, const TestCertificates& certificates)
    : tools_(install.dir()), certificates_(certificates.dir())
{
}

QStringList EgressSandbox::options(const QString& events, const QStringList& allowed) const
{
    return QStringList{QStringLiteral("--ro"),          tools_, QStringLiteral("--ro"), certificates_,
                       QStringLiteral("--json-events"), events} +
           allowHosts(allowed);
}

QString EgressSandbox::eventsFile(const AccountRunner& runner, const QString& label)
{
    return runner.workspace() + QStringLiteral("/events-%1.jsonl").arg(label);
}

QStringList EgressSandbox::allowHosts(const QStringList& hosts)
{
    QStringList options;
    for (const QString& host : hosts) {
        options << QStringLiteral("--allow-host") << host;
    }
    return options;
}

QString EgressSandbox::loopback(int port)
{
    return QStringLiteral("127.0.0.1:%1").arg(port);
}

QString EgressSandbox::localhost(int port)
{
    return QStringLiteral("localhost:%1").arg(port);
}

QStringList EgressSandbox::throughProxy(const QStringList& argv)
{
    return QStringList{QStringLiteral("/usr/bin/env"), QStringLiteral("-u"), QStringLiteral("NO_PROXY"),
                       QStringLiteral("-u"), QStringLiteral("no_proxy")} +
           argv;
}

RunOptions EgressSandbox::patient(int timeoutMs)
{
    RunOptions options;
    options.timeoutMs = timeoutMs;
    return options;
}
