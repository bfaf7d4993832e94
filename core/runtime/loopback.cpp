// SPDX-License-Identifier: Apache-2.0
#include "runtime/loopback.h"

#include "base/unique_fd.h"

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace moat {

Status bringUpLoopback()
{
    UniqueFd sock(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!sock) {
        return Error::fromErrno("cannot open a socket to configure lo", errno);
    }
    ifreq request{};
    std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
    if (::ioctl(sock.get(), SIOCGIFFLAGS, &request) != 0) {
        return Error::fromErrno("cannot read the flags of lo", errno);
    }
    request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP | IFF_RUNNING);
    if (::ioctl(sock.get(), SIOCSIFFLAGS, &request) != 0) {
        return Error::fromErrno("cannot bring up lo", errno);
    }
    return {};
}

}  // namespace moat
