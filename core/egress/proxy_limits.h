// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>

namespace moat {

// Every bound the egress proxy puts on a client (the hostile agent) and on an
// upstream (any server on the internet). Each one turns a way to hold the
// supervisor's resources forever into a clear, bounded outcome. Tests shorten
// them; the defaults are what a session runs with.
struct ProxyLimits {
    using Seconds = std::chrono::seconds;

    // Connections served at once, both listeners together; one more is closed
    // at once. Each costs two descriptors while tunnelled.
    std::size_t maxConnections = 10000;
    // The whole request head (request line and headers), in bytes: 431 past it.
    std::size_t maxHeaderBytes = 32 * 1024;
    // A request head must arrive whole within this, from its first byte or
    // from the connection's start: slow senders (slowloris) get no more.
    Seconds headTimeout{10};
    // A keep-alive client connection waiting for its next request.
    Seconds keepAliveIdle{60};
    // Host-side name resolution, and the TCP connect to the upstream.
    Seconds resolveTimeout{10};
    Seconds connectTimeout{10};
    // An upstream that accepted a request and sends no response head: 504.
    Seconds responseTimeout{60};
    // A request or response body that makes no progress for this long.
    Seconds bodyIdleTimeout{60};
    // A tunnel with no byte in either direction for this long is closed; once
    // one side has finished sending, the other gets halfClosedIdle.
    Seconds tunnelIdle{600};
    Seconds halfClosedIdle{60};
    // Once the first byte of a tunnel's client data arrived, the rest of a
    // TLS ClientHello must follow within this.
    Seconds clientHelloTimeout{10};
    // Bytes moved per splice() call, and the size asked of each pipe.
    std::size_t spliceChunk = 1024 * 1024;
};

}  // namespace moat
