// SPDX-License-Identifier: Apache-2.0
#include "egress/splice_tunnel.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <fcntl.h>
#include <sys/socket.h>

#include <cerrno>

namespace moat {

namespace asio = boost::asio;

namespace {

// Rounds of splice() per wakeup before yielding to the other connections.
constexpr int kRoundsPerWakeup = 16;

}  // namespace

SpliceTunnel::SpliceTunnel(std::shared_ptr<PipePool> pipes, const ProxyLimits& limits, Socket client,
                           Socket upstream, Options options)
    : pipes_(std::move(pipes)),
      limits_(limits),
      client_(std::move(client)),
      upstream_(std::move(upstream)),
      options_(std::move(options)),
      idleTimer_(client_.get_executor()),
      helloTimer_(client_.get_executor())
{
    flows_[kUp].from = &client_;
    flows_[kUp].to = &upstream_;
    flows_[kDown].from = &upstream_;
    flows_[kDown].to = &client_;
}

void SpliceTunnel::start()
{
    boost::system::error_code ignored;
    client_.native_non_blocking(true, ignored);
    upstream_.native_non_blocking(true, ignored);
    touch();
    armIdleTimer();
    pump(kDown);
    firstBytes_ = std::move(options_.clientBytes);
    if (!options_.check) {
        options_.check = [](std::span<const std::uint8_t>) {
            return FirstBytesVerdict{FirstBytesVerdict::Kind::Pass, {}};
        };
    }
    if (firstBytes_.empty()) {
        readMoreFirstBytes();
    } else {
        inspectFirstBytes();
    }
}

void SpliceTunnel::close()
{
    if (closed_) {
        return;
    }
    closed_ = true;
    boost::system::error_code ignored;
    client_.close(ignored);
    upstream_.close(ignored);
    idleTimer_.cancel();
    helloTimer_.cancel();
    // A pipe with bytes still in it is closed with the tunnel; an empty one
    // goes back to the pool.
    for (Flow& flow : flows_) {
        if (flow.pipe && flow.pending == 0) {
            pipes_->giveBackEmpty(std::move(*flow.pipe));
        }
        flow.pipe.reset();
    }
}

void SpliceTunnel::touch()
{
    lastActivity_ = std::chrono::steady_clock::now();
}

std::chrono::steady_clock::duration SpliceTunnel::idleLimit() const
{
    const bool halfClosed = flows_[kUp].finished || flows_[kDown].finished;
    return halfClosed ? limits_.halfClosedIdle : limits_.tunnelIdle;
}

void SpliceTunnel::armIdleTimer()
{
    // Re-armed from the last activity rather than on every byte: moving data
    // costs one clock read, not a timer operation.
    idleTimer_.expires_at(lastActivity_ + idleLimit());
    idleTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (ec || self->closed_) {
            return;
        }
        if (std::chrono::steady_clock::now() >= self->lastActivity_ + self->idleLimit()) {
            self->close();
            return;
        }
        self->armIdleTimer();
    });
}

// --- the client's first bytes -------------------------------------------

void SpliceTunnel::readMoreFirstBytes()
{
    // Wait first, then read what is there: a tunnel whose client has not
    // spoken yet (thousands may be open) holds no buffer while it waits.
    client_.async_wait(Socket::wait_read, [self = shared_from_this()](const boost::system::error_code& waited) {
        if (self->closed_) {
            return;
        }
        if (waited) {
            self->close();
            return;
        }
        const std::size_t have = self->firstBytes_.size();
        self->firstBytes_.resize(self->options_.maxCheckedBytes);
        boost::system::error_code ec;
        const std::size_t n =
            self->client_.read_some(asio::buffer(self->firstBytes_.data() + have, self->firstBytes_.size() - have), ec);
        self->firstBytes_.resize(have + n);
        if (ec == asio::error::would_block || ec == asio::error::try_again) {
            self->readMoreFirstBytes();
            return;
        }
        if (ec) {
            // EOF before any byte passed: the client is done sending.
            if (ec == asio::error::eof) {
                self->finishFlow(kUp);
            } else {
                self->close();
            }
            return;
        }
        self->touch();
        self->inspectFirstBytes();
    });
}

void SpliceTunnel::inspectFirstBytes()
{
    const FirstBytesVerdict verdict = options_.check(firstBytes_);
    switch (verdict.kind) {
    case FirstBytesVerdict::Kind::Pass:
        helloTimer_.cancel();
        deliverFirstBytes();
        return;
    case FirstBytesVerdict::Kind::Refuse:
        if (options_.onRefused) {
            options_.onRefused(verdict.reason);
        }
        close();
        return;
    case FirstBytesVerdict::Kind::NeedMoreBytes:
        break;
    }
    if (firstBytes_.size() >= options_.maxCheckedBytes) {
        if (options_.onRefused) {
            options_.onRefused("the tunnel's first bytes could not be checked within " +
                               std::to_string(options_.maxCheckedBytes) + " bytes");
        }
        close();
        return;
    }
    if (!firstBytes_.empty() && !helloTimerArmed_) {
        helloTimerArmed_ = true;
        // The first byte arrived: the rest of the message gets a deadline.
        helloTimer_.expires_after(limits_.clientHelloTimeout);
        helloTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
            if (ec || self->closed_) {
                return;
            }
            if (self->options_.onRefused) {
                self->options_.onRefused("the tunnel's first message did not arrive whole within " +
                                         std::to_string(self->limits_.clientHelloTimeout.count()) + " s");
            }
            self->close();
        });
    }
    readMoreFirstBytes();
}

void SpliceTunnel::deliverFirstBytes()
{
    asio::async_write(upstream_, asio::buffer(firstBytes_),
                      [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
                          if (self->closed_) {
                              return;
                          }
                          if (ec) {
                              self->close();
                              return;
                          }
                          self->flows_[kUp].bytes += n;
                          std::vector<std::uint8_t>().swap(self->firstBytes_);  // release, not only clear
                          self->touch();
                          self->pump(kUp);
                      });
}

// --- splice ---------------------------------------------------------------

void SpliceTunnel::waitFor(int which, bool readable)
{
    Flow& flow = flows_[which];
    Socket& socket = readable ? *flow.from : *flow.to;
    socket.async_wait(readable ? Socket::wait_read : Socket::wait_write,
                      [self = shared_from_this(), which](const boost::system::error_code& ec) {
                          if (ec || self->closed_) {
                              return;
                          }
                          self->pump(which);
                      });
}

void SpliceTunnel::pump(int which)
{
    Flow& flow = flows_[which];
    const unsigned flags = SPLICE_F_MOVE | SPLICE_F_NONBLOCK;
    for (int round = 0; round < kRoundsPerWakeup && !closed_; ++round) {
        if (flow.pending > 0) {
            const ssize_t n = ::splice(flow.pipe->readEnd.get(), nullptr, flow.to->native_handle(), nullptr,
                                       flow.pending, flags);
            if (n > 0) {
                flow.pending -= static_cast<std::size_t>(n);
                flow.bytes += static_cast<std::uint64_t>(n);
                touch();
                continue;
            }
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0 && errno == EAGAIN) {
                waitFor(which, false);
                return;
            }
            close();  // EPIPE, ECONNRESET: the receiver is gone
            return;
        }
        if (!flow.pipe) {
            auto pipe = pipes_->take();
            if (!pipe) {
                close();  // out of descriptors: fail this tunnel, not the proxy
                return;
            }
            flow.pipe = std::move(pipe.value());
        }
        const ssize_t n = ::splice(flow.from->native_handle(), nullptr, flow.pipe->writeEnd.get(), nullptr,
                                   limits_.spliceChunk, flags);
        if (n > 0) {
            flow.pending = static_cast<std::size_t>(n);
            touch();
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        // Nothing in flight: the pipe goes back for other tunnels to use.
        pipes_->giveBackEmpty(std::move(*flow.pipe));
        flow.pipe.reset();
        if (n < 0 && errno == EAGAIN) {
            waitFor(which, true);
            return;
        }
        if (n == 0) {
            finishFlow(which);
            return;
        }
        close();
        return;
    }
    if (!closed_) {
        asio::post(client_.get_executor(), [self = shared_from_this(), which] {
            if (!self->closed_) {
                self->pump(which);
            }
        });
    }
}

void SpliceTunnel::finishFlow(int which)
{
    Flow& flow = flows_[which];
    flow.finished = true;
    boost::system::error_code ignored;
    flow.to->shutdown(Socket::shutdown_send, ignored);
    if (flows_[kUp].finished && flows_[kDown].finished) {
        close();
        return;
    }
    // The other side now gets the shorter half-closed limit.
    touch();
    idleTimer_.cancel();
    armIdleTimer();
}

}  // namespace moat
