// SPDX-License-Identifier: Apache-2.0
#include "runtime/init_channel.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace moat {

namespace {
constexpr size_t kMaxMessage = 64 * 1024;
}

Result<std::pair<InitChannel, InitChannel>> InitChannel::makePair()
{
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) {
        return Error::fromErrno("cannot create the supervisor channel", errno);
    }
    return std::make_pair(InitChannel(UniqueFd(fds[0])), InitChannel(UniqueFd(fds[1])));
}

Status InitChannel::send(const nlohmann::json& body, int fdToPass) const
{
    const std::string text = body.dump();
    iovec iov{const_cast<char*>(text.data()), text.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (fdToPass >= 0) {
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(cmsg), &fdToPass, sizeof(int));
    }
    for (;;) {
        if (::sendmsg(fd_.get(), &msg, MSG_NOSIGNAL) >= 0) {
            return {};
        }
        if (errno != EINTR) {
            return Error::fromErrno("cannot talk to the supervisor channel", errno);
        }
    }
}

Result<InitChannel::Message> InitChannel::receive() const
{
    std::string buffer(kMaxMessage, '\0');
    iovec iov{buffer.data(), buffer.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n;
    do {
        n = ::recvmsg(fd_.get(), &msg, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        return Error::fromErrno("cannot read the supervisor channel", errno);
    }
    if (n == 0) {
        return Error{"closed", 0};
    }
    Message out;
    for (cmsghdr* cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
        if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS &&
            cmsg->cmsg_len == CMSG_LEN(sizeof(int))) {
            int fd;
            std::memcpy(&fd, CMSG_DATA(cmsg), sizeof fd);
            out.fd.reset(fd);
        }
    }
    if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        return Error{"oversized message on the supervisor channel", EMSGSIZE};
    }
    buffer.resize(static_cast<size_t>(n));
    out.body = nlohmann::json::parse(buffer, nullptr, false);
    if (out.body.is_discarded() || !out.body.is_object() || !out.body.contains("t") || !out.body["t"].is_string()) {
        return Error{"malformed message on the supervisor channel", EPROTO};
    }
    return out;
}

}  // namespace moat
