// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error.h"

#include <string>
#include <vector>

namespace moat {

// The session's interception CA (egress/tls), added to the trust of the
// sandbox being built when the proxy must see inside some host's TLS: the
// system bundles of Debian, Fedora and Alpine layouts get the CA appended
// (each overmounted read-only by a copy of itself plus the CA), and
// /etc/moat holds the bundle and the CA alone for the environment variables
// that name a file. Only the certificate enters the sandbox; its key stays in
// the supervisor's memory.
class SessionTrust {
public:
    // Inside the sandbox: the system bundle plus the session CA, and the CA alone.
    static constexpr const char* kBundlePath = "/etc/moat/ca-bundle.pem";
    static constexpr const char* kCaPath = "/etc/moat/session-ca.pem";

    // The bundle paths of the common layouts, relative to the root.
    static const std::vector<std::string>& systemBundles();

    // In sandbox init, on the staged root (before it is made read-only).
    static Status install(int stageFd, const std::string& caPem);

    // SSL_CERT_FILE, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO (the
    // bundle) and NODE_EXTRA_CA_CERTS (the CA alone, which Node adds to its
    // own list), replacing any value already in env ("NAME=VALUE" entries).
    static void addEnvironment(std::vector<std::string>& env);
};

}  // namespace moat
