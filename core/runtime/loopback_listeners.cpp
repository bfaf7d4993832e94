// SPDX-License-Identifier: Apache-2.0
#include "runtime/loopback_listeners.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>
#include <string>

namespace moat {

namespace {

Result<UniqueFd> boundSocket(int type, uint16_t port)
{
    UniqueFd sock(::socket(AF_INET, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!sock) {
        return Error::fromErrno("cannot create a socket in the sandbox", errno);
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(sock.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        return Error::fromErrno("cannot bind 127.0.0.1:" + std::to_string(port) + " in the sandbox", errno);
    }
    return sock;
}

}  // namespace

Result<UniqueFd> bindLoopbackUdp(uint16_t port)
{
    return boundSocket(SOCK_DGRAM, port);
}

Result<UniqueFd> listenLoopbackTcp(uint16_t port, int backlog)
{
    auto sock = boundSocket(SOCK_STREAM, port);
    if (!sock) {
        return sock;
    }
    if (::listen(sock->get(), backlog) != 0) {
        return Error::fromErrno("cannot listen on 127.0.0.1:" + std::to_string(port) + " in the sandbox", errno);
    }
    return sock;
}

}  // namespace moat
