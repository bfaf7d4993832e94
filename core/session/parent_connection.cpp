// SPDX-License-Identifier: Apache-2.0
#include "session/parent_connection.h"

#include <poll.h>
#include <sys/socket.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>

namespace moat {

namespace asio = boost::asio;

ParentConnection::ParentConnection(asio::io_context& io, UniqueFd fd, Framing framing)
    : stream_(io, fd.release()), framing_(framing)
{
    stream_.non_blocking(true);
}

ParentConnection::~ParentConnection()
{
    boost::system::error_code ignored;
    stream_.close(ignored);
}

void ParentConnection::start(Receiver receiver, Closed closed)
{
    receiver_ = std::move(receiver);
    closed_ = std::move(closed);
    waitReadable();
}

int ParentConnection::peerPid() const
{
    ucred credentials{};
    socklen_t length = sizeof credentials;
    auto& stream = const_cast<asio::posix::stream_descriptor&>(stream_);
    if (::getsockopt(stream.native_handle(), SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) {
        return 0;
    }
    return credentials.pid;
}

void ParentConnection::waitReadable()
{
    stream_.async_wait(asio::posix::descriptor_base::wait_read,
                       [self = shared_from_this()](const boost::system::error_code& ec) {
                           if (!ec && self->isOpen()) {
                               self->readAvailable();
                           }
                       });
}

void ParentConnection::readAvailable()
{
    for (;;) {
        const bool more = framing_ == Framing::Datagrams ? readDatagram() : readLines();
        if (!isOpen()) {
            return;  // closed while reading, or by a handler
        }
        if (!more) {
            waitReadable();
            return;
        }
    }
}

// One datagram; false when none is waiting.
bool ParentConnection::readDatagram()
{
    std::string buffer(kMaxMessage, '\0');
    iovec iov{buffer.data(), buffer.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(4 * sizeof(int))] = {};
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n;
    do {
        n = ::recvmsg(stream_.native_handle(), &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return false;
    }
    // No parent message carries an fd: any that came along is closed.
    for (cmsghdr* cmsg = CMSG_FIRSTHDR(&msg); n >= 0 && cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
        if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS) {
            const std::size_t count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (std::size_t i = 0; i < count; ++i) {
                int fd;
                std::memcpy(&fd, CMSG_DATA(cmsg) + i * sizeof(int), sizeof fd);
                ::close(fd);
            }
        }
    }
    if (n <= 0) {
        fail();  // EOF: the parent is gone
        return false;
    }
    if (msg.msg_flags & MSG_TRUNC) {
        spdlog::warn("a message from the parent is larger than {} bytes; dropping the link", kMaxMessage);
        fail();
        return false;
    }
    deliver(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
    return true;
}

// Whatever bytes are there, split into lines; false when none are waiting.
bool ParentConnection::readLines()
{
    char chunk[16384];
    ssize_t n;
    do {
        n = ::recv(stream_.native_handle(), chunk, sizeof chunk, MSG_DONTWAIT);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return false;
    }
    if (n <= 0) {
        fail();
        return false;
    }
    input_.append(chunk, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = input_.find('\n', start);
        if (end == std::string::npos) {
            break;
        }
        deliver(std::string_view(input_).substr(start, end - start));
        if (!isOpen()) {
            return false;
        }
        start = end + 1;
    }
    input_.erase(0, start);
    if (input_.size() > kMaxMessage) {
        spdlog::warn("a line from the parent is longer than {} bytes; dropping the link", kMaxMessage);
        fail();
        return false;
    }
    return true;
}

void ParentConnection::deliver(std::string_view text)
{
    auto message = nlohmann::json::parse(text, nullptr, false);
    if (message.is_discarded() || !message.is_object() || !message.contains("t") || !message["t"].is_string()) {
        // Trusted, but not understood: ignored rather than guessed at.
        spdlog::warn("ignoring a message from the parent that is not a JSON object with a \"t\"");
        return;
    }
    if (receiver_) {
        receiver_(message);
    }
}

bool ParentConnection::send(const nlohmann::json& message)
{
    if (!isOpen()) {
        return false;
    }
    std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (framing_ == Framing::Lines) {
        text += '\n';
    }
    queued_ += text.size();
    output_.push_back(std::move(text));
    if (queued_ > kMaxQueued) {
        spdlog::warn("the parent reads nothing ({} bytes waiting); dropping the link", queued_);
        fail();
        return false;
    }
    if (!writing_) {
        flush();
    }
    return true;
}

void ParentConnection::flush()
{
    const int fd = stream_.native_handle();
    while (!output_.empty()) {
        const std::string& front = output_.front();
        ssize_t n;
        do {
            n = ::send(fd, front.data() + sentOfFront_, front.size() - sentOfFront_, MSG_DONTWAIT | MSG_NOSIGNAL);
        } while (n < 0 && errno == EINTR);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            writing_ = true;
            stream_.async_wait(asio::posix::descriptor_base::wait_write,
                               [self = shared_from_this()](const boost::system::error_code& ec) {
                                   self->writing_ = false;
                                   if (!ec && self->isOpen()) {
                                       self->flush();
                                   }
                               });
            return;
        }
        if (n < 0) {
            fail();
            return;
        }
        sentOfFront_ += static_cast<std::size_t>(n);
        if (framing_ == Framing::Datagrams || sentOfFront_ == front.size()) {
            queued_ -= front.size();
            output_.pop_front();
            sentOfFront_ = 0;
        }
    }
}

void ParentConnection::sendFinal(const nlohmann::json& message, std::chrono::milliseconds timeout)
{
    if (!send(message)) {
        return;
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (isOpen() && !output_.empty()) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            break;
        }
        pollfd pfd{stream_.native_handle(), POLLOUT, 0};
        if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) {
            break;
        }
        writing_ = false;  // the event loop no longer runs: write here
        flush();
    }
}

void ParentConnection::fail()
{
    if (!isOpen()) {
        return;
    }
    close();
    if (closed_) {
        auto closed = std::move(closed_);
        closed();
    }
}

void ParentConnection::close()
{
    boost::system::error_code ignored;
    stream_.cancel(ignored);
    stream_.close(ignored);
    output_.clear();
    queued_ = 0;
    sentOfFront_ = 0;
}

}  // namespace moat
