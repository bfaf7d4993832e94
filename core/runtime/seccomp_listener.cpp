// SPDX-License-Identifier: Apache-2.0
#include "runtime/seccomp_listener.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace moat {

namespace {

std::size_t words(std::size_t bytes)
{
    return (bytes + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t);
}

}  // namespace

SeccompListener::SeccompListener(int fd) : fd_(fd)
{
    seccomp_notif_sizes sizes{};
    if (::syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) {
        sizes.seccomp_notif = sizeof(seccomp_notif);
        sizes.seccomp_notif_resp = sizeof(seccomp_notif_resp);
    }
    request_.assign(words(std::max<std::size_t>(sizes.seccomp_notif, sizeof(seccomp_notif))), 0);
    response_.assign(words(std::max<std::size_t>(sizes.seccomp_notif_resp, sizeof(seccomp_notif_resp))), 0);
}

SeccompListener::State SeccompListener::wait(int timeoutMs) const
{
    pollfd ready{fd_, POLLIN, 0};
    const int polled = ::poll(&ready, 1, timeoutMs);
    if (polled < 0) {
        return errno == EINTR ? State::Empty : State::Closed;
    }
    if (polled > 0 && (ready.revents & POLLIN)) {
        return State::Waiting;
    }
    // POLLHUP: every process that used the filter is gone.
    return (ready.revents & (POLLHUP | POLLERR | POLLNVAL)) ? State::Closed : State::Empty;
}

Result<SeccompRequest> SeccompListener::receive()
{
    // The kernel refuses a buffer that is not zeroed.
    std::fill(request_.begin(), request_.end(), 0);
    int rc;
    do {
        rc = ::ioctl(fd_, SECCOMP_IOCTL_NOTIF_RECV, request_.data());
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        return Error::fromErrno("cannot receive from the seccomp listener", errno);
    }
    seccomp_notif notif{};
    std::memcpy(&notif, request_.data(), sizeof notif);
    return SeccompRequest{notif.id, static_cast<pid_t>(notif.pid), notif.data};
}

bool SeccompListener::pending(std::uint64_t id) const
{
    return ::ioctl(fd_, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

Status SeccompListener::letRun(std::uint64_t id)
{
    seccomp_notif_resp response{};
    response.id = id;
    response.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    std::fill(response_.begin(), response_.end(), 0);
    std::memcpy(response_.data(), &response, sizeof response);
    if (::ioctl(fd_, SECCOMP_IOCTL_NOTIF_SEND, response_.data()) != 0) {
        return Error::fromErrno("cannot answer the seccomp listener", errno);
    }
    return {};
}

}  // namespace moat
