// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/unique_fd.h"
#include "egress/dns_stub_answer.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/udp.hpp>

#include <array>
#include <functional>
#include <memory>
#include <string>

namespace moat {

// Serves the sandbox's nameserver (UDP and TCP 127.0.0.1:53 inside its
// network namespace) from the supervisor, outside. Every query is answered
// from DnsStubAnswer, nothing is resolved and nothing leaves the machine; each
// query is reported to `onQuery` for the session's timeline.
//
// Bounded against a hostile client: one UDP datagram at a time, at most
// kMaxTcpClients TCP connections, each closed after kTcpIdleSeconds without a
// complete message.
class DnsStub {
public:
    using QueryHandler = std::function<void(const DnsStubAnswer& answer, const char* transport)>;

    static constexpr int kMaxTcpClients = 16;
    static constexpr int kTcpIdleSeconds = 10;

    DnsStub(boost::asio::io_context& io, UniqueFd udpSocket, UniqueFd tcpListener, QueryHandler onQuery);
    ~DnsStub();
    DnsStub(const DnsStub&) = delete;
    DnsStub& operator=(const DnsStub&) = delete;

    void start();
    void stop();

private:
    class TcpClient;

    void receiveUdp();
    void acceptTcp();

    boost::asio::io_context& io_;
    boost::asio::ip::udp::socket udp_;
    boost::asio::ip::tcp::acceptor tcp_;
    QueryHandler onQuery_;
    std::array<std::uint8_t, DnsStubAnswer::kMaxUdpMessage + 1> datagram_{};
    boost::asio::ip::udp::endpoint sender_;
    std::vector<std::uint8_t> pendingReply_;
    std::shared_ptr<int> tcpClients_ = std::make_shared<int>(0);
    bool stopped_ = false;
};

}  // namespace moat
