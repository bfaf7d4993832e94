// SPDX-License-Identifier: Apache-2.0
#include "egress/dns_stub.h"

#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <spdlog/spdlog.h>

namespace moat {

namespace asio = boost::asio;

// One TCP client: 2-byte length, message, answer; again until idle or closed.
class DnsStub::TcpClient : public std::enable_shared_from_this<DnsStub::TcpClient> {
public:
    TcpClient(asio::ip::tcp::socket socket, QueryHandler& onQuery, std::shared_ptr<int> count)
        : socket_(std::move(socket)), idle_(socket_.get_executor()), onQuery_(onQuery), count_(std::move(count))
    {
        ++*count_;
    }
    ~TcpClient() { --*count_; }

    void start() { readLength(); }

private:
    void armIdleTimer()
    {
        idle_.expires_after(std::chrono::seconds(kTcpIdleSeconds));
        idle_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
            if (!ec) {
                boost::system::error_code ignored;
                self->socket_.close(ignored);
            }
        });
    }

    void readLength()
    {
        armIdleTimer();
        asio::async_read(socket_, asio::buffer(length_), [self = shared_from_this()](auto ec, std::size_t) {
            if (ec) {
                self->idle_.cancel();
                return;
            }
            const std::size_t size = (std::size_t(self->length_[0]) << 8) | self->length_[1];
            if (size < DnsStubAnswer::kHeaderLength) {
                self->idle_.cancel();
                return;  // nothing a resolver would send: close
            }
            self->message_.resize(size);
            self->readMessage();
        });
    }

    void readMessage()
    {
        asio::async_read(socket_, asio::buffer(message_), [self = shared_from_this()](auto ec, std::size_t) {
            if (ec) {
                self->idle_.cancel();
                return;
            }
            const auto answer = DnsStubAnswer::answer(self->message_, DnsStubAnswer::Transport::Tcp);
            self->onQuery_(answer, "tcp");
            if (answer.reply().empty()) {
                self->idle_.cancel();
                return;
            }
            const auto& reply = answer.reply();
            self->out_.assign({std::uint8_t(reply.size() >> 8), std::uint8_t(reply.size() & 0xff)});
            self->out_.insert(self->out_.end(), reply.begin(), reply.end());
            asio::async_write(self->socket_, asio::buffer(self->out_), [self](auto writeEc, std::size_t) {
                if (!writeEc) {
                    self->readLength();
                } else {
                    self->idle_.cancel();
                }
            });
        });
    }

    asio::ip::tcp::socket socket_;
    asio::steady_timer idle_;
    QueryHandler& onQuery_;
    std::shared_ptr<int> count_;
    std::array<std::uint8_t, 2> length_{};
    std::vector<std::uint8_t> message_;
    std::vector<std::uint8_t> out_;
};

DnsStub::DnsStub(asio::io_context& io, UniqueFd udpSocket, UniqueFd tcpListener, QueryHandler onQuery)
    : io_(io), udp_(io), tcp_(io), onQuery_(std::move(onQuery))
{
    boost::system::error_code ec;
    if (udpSocket) {
        udp_.assign(asio::ip::udp::v4(), udpSocket.release(), ec);
    }
    if (tcpListener) {
        tcp_.assign(asio::ip::tcp::v4(), tcpListener.release(), ec);
    }
    if (ec) {
        spdlog::warn("DNS stub: {}", ec.message());
    }
}

DnsStub::~DnsStub()
{
    stop();
}

void DnsStub::start()
{
    if (udp_.is_open()) {
        receiveUdp();
    }
    if (tcp_.is_open()) {
        acceptTcp();
    }
}

void DnsStub::stop()
{
    stopped_ = true;
    boost::system::error_code ignored;
    udp_.close(ignored);
    tcp_.close(ignored);
}

void DnsStub::receiveUdp()
{
    udp_.async_receive_from(asio::buffer(datagram_), sender_, [this](const boost::system::error_code& ec, std::size_t n) {
        if (stopped_ || ec == asio::error::operation_aborted) {
            return;
        }
        if (!ec) {
            const auto answer =
                DnsStubAnswer::answer(std::span<const std::uint8_t>(datagram_.data(), n), DnsStubAnswer::Transport::Udp);
            onQuery_(answer, "udp");
            if (!answer.reply().empty()) {
                // A datagram to the sandbox's own loopback: sent at once or dropped.
                boost::system::error_code sendEc;
                udp_.send_to(asio::buffer(answer.reply()), sender_, 0, sendEc);
            }
        }
        receiveUdp();
    });
}

void DnsStub::acceptTcp()
{
    tcp_.async_accept([this](const boost::system::error_code& ec, asio::ip::tcp::socket socket) {
        if (stopped_ || ec == asio::error::operation_aborted) {
            return;
        }
        if (!ec) {
            if (*tcpClients_ < kMaxTcpClients) {
                std::make_shared<TcpClient>(std::move(socket), onQuery_, tcpClients_)->start();
            }
            // Over the limit: the socket closes here, the client sees a reset.
        }
        acceptTcp();
    });
}

}  // namespace moat
