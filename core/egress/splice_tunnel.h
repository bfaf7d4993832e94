// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "egress/pipe_pool.h"
#include "egress/proxy_limits.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace moat {

// A verdict on the first bytes the client sends into a tunnel, before any of
// them reaches the upstream (see TunnelFirstBytes).
struct FirstBytesVerdict {
    enum class Kind { NeedMoreBytes, Pass, Refuse };
    Kind kind = Kind::NeedMoreBytes;
    std::string reason;  // when Refuse
};
using FirstBytesCheck = std::function<FirstBytesVerdict(std::span<const std::uint8_t>)>;

// The bytes of an established tunnel (HTTP CONNECT or SOCKS5), relayed both
// ways with splice() so that they never enter user space. Event-driven on
// the proxy's executor; it keeps itself alive until both directions are done
// or the tunnel is closed.
//
// Upstream-to-client bytes flow at once (some protocols speak first from the
// server). Client-to-upstream bytes are held until `check` passes the first
// of them; a refusal closes the tunnel before the upstream sees a byte.
// Half-close is relayed (shutdown of the write side), and ProxyLimits bounds
// how long a silent or half-closed tunnel is kept.
class SpliceTunnel : public std::enable_shared_from_this<SpliceTunnel> {
public:
    using Socket = boost::asio::ip::tcp::socket;
    using RefusalHandler = std::function<void(const std::string& reason)>;

    struct Options {
        // Bytes the client already sent after its tunnel request: they are
        // checked and delivered first.
        std::vector<std::uint8_t> clientBytes;
        FirstBytesCheck check;  // none: every byte passes
        std::size_t maxCheckedBytes = 16 * 1024 + 5;
        RefusalHandler onRefused;
        // Whatever must live as long as the tunnel (its connection slot).
        std::shared_ptr<void> lease;
    };

    SpliceTunnel(std::shared_ptr<PipePool> pipes, const ProxyLimits& limits, Socket client, Socket upstream,
                 Options options);
    SpliceTunnel(const SpliceTunnel&) = delete;
    SpliceTunnel& operator=(const SpliceTunnel&) = delete;

    void start();
    // Closes both sockets now; pending work ends on its own.
    void close();

    std::uint64_t bytesUp() const { return flows_[kUp].bytes; }
    std::uint64_t bytesDown() const { return flows_[kDown].bytes; }

private:
    static constexpr int kUp = 0;    // client to upstream
    static constexpr int kDown = 1;  // upstream to client

    struct Flow {
        Socket* from = nullptr;
        Socket* to = nullptr;
        std::optional<SplicePipe> pipe;
        std::size_t pending = 0;  // bytes in the pipe, not yet written
        std::uint64_t bytes = 0;
        bool finished = false;
    };

    void pump(int which);
    void waitFor(int which, bool readable);
    void finishFlow(int which);
    void inspectFirstBytes();
    void readMoreFirstBytes();
    void deliverFirstBytes();
    void touch();
    void armIdleTimer();
    std::chrono::steady_clock::duration idleLimit() const;

    std::shared_ptr<PipePool> pipes_;
    ProxyLimits limits_;
    Socket client_;
    Socket upstream_;
    Options options_;
    std::vector<std::uint8_t> firstBytes_;
    Flow flows_[2];
    boost::asio::steady_timer idleTimer_;
    boost::asio::steady_timer helloTimer_;
    std::chrono::steady_clock::time_point lastActivity_;
    bool helloTimerArmed_ = false;
    bool closed_ = false;
};

}  // namespace moat
