// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

#include "runoptions.h"

class AccountRunner;
class MoatInstall;
class TestCertificates;

// How the egress tests start a sandbox: the tools and the test CA visible
// read-only, the events written to a file of the workspace, and the
// destinations allowed with --allow-host.
class EgressSandbox {
public:
    EgressSandbox(const MoatInstall& install, const TestCertificates& certificates);

    // --ro for the tools and the test CA, --json-events EVENTS, --allow-host each.
    QStringList options(const QString& events, const QStringList& allowed) const;
    // WORKSPACE/events-LABEL.jsonl
    static QString eventsFile(const AccountRunner& runner, const QString& label);

    static QStringList allowHosts(const QStringList& hosts);
    // "127.0.0.1:PORT" and "localhost:PORT", as --allow-host values and authorities.
    static QString loopback(int port);
    static QString localhost(int port);
    // NO_PROXY inside names localhost and 127.0.0.1, so that the agent reaches
    // moat's API on 127.0.0.1:3128 directly. The test upstreams live there
    // too, which no real destination does: clients that should go through the
    // proxy run without it (env -u), or they would not use the proxy at all.
    static QStringList throughProxy(const QStringList& argv);
    static RunOptions patient(int timeoutMs);

private:
    QString tools_;
    QString certificates_;
};
