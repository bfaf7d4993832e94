// SPDX-License-Identifier: Apache-2.0
#include "probe/network_checks.h"

#include "probe/joined.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

namespace moat::probe {

namespace {

// Asks the kernel for a route to address:port by connect()ing a UDP socket:
// no datagram is sent. Returns "" when no route, else "via source <addr>".
struct RouteAnswer {
    bool routed = false;
    std::string text;
};

RouteAnswer routeTo(const std::string& address, uint16_t port)
{
    sockaddr_storage target{};
    socklen_t length = 0;
    auto* v4 = reinterpret_cast<sockaddr_in*>(&target);
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&target);
    if (::inet_pton(AF_INET, address.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof *v4;
    } else if (::inet_pton(AF_INET6, address.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof *v6;
    } else {
        return {false, address + ": not an address"};
    }
    const int fd = ::socket(target.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return {false, address + ": socket: " + std::strerror(errno)};
    }
    RouteAnswer answer;
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&target), length) != 0) {
        answer = {false, address + ": " + std::strerror(errno)};
    } else {
        sockaddr_storage source{};
        socklen_t sourceLength = sizeof source;
        char text[INET6_ADDRSTRLEN] = "?";
        if (::getsockname(fd, reinterpret_cast<sockaddr*>(&source), &sourceLength) == 0) {
            const void* raw = source.ss_family == AF_INET
                                  ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(&source)->sin_addr)
                                  : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(&source)->sin6_addr);
            ::inet_ntop(source.ss_family, raw, text, sizeof text);
        }
        answer = {true, address + ": routed, source " + std::string(text)};
    }
    ::close(fd);
    return answer;
}

bool isLoopback(const std::string& address)
{
    return address.rfind("127.", 0) == 0 || address == "::1";
}

}  // namespace

Check defaultRoute()
{
    std::vector<std::string> defaults;
    std::ifstream v4("/proc/net/route");
    std::string line;
    std::getline(v4, line);  // header
    while (std::getline(v4, line)) {
        std::istringstream fields(line);
        std::string iface, destination, gateway, flags, refcnt, use, metric, mask;
        fields >> iface >> destination >> gateway >> flags >> refcnt >> use >> metric >> mask;
        if (destination == "00000000" && mask == "00000000") {
            defaults.push_back("IPv4 default via " + iface);
        }
    }
    std::ifstream v6("/proc/net/ipv6_route");
    while (std::getline(v6, line)) {
        std::istringstream fields(line);
        std::string destination, prefix, source, sourcePrefix, next, metric, refcnt, use, flags, iface;
        fields >> destination >> prefix >> source >> sourcePrefix >> next >> metric >> refcnt >> use >> flags >> iface;
        const bool reject = (std::strtoul(flags.c_str(), nullptr, 16) & 0x0200UL) != 0;  // RTF_REJECT
        if (destination == std::string(32, '0') && prefix == "00" && !reject && iface != "lo") {
            defaults.push_back("IPv6 default via " + iface);
        }
    }
    return {"default_route", defaults.empty(), defaults.empty() ? "no default route" : joined(defaults, "; ")};
}

Check publicRoute()
{
    const auto v4 = routeTo("1.1.1.1", 53);
    const auto v6 = routeTo("2606:4700:4700::1111", 53);
    return {"public_route", !v4.routed && !v6.routed, v4.text + "; " + v6.text + " (route lookup, nothing sent)"};
}

Check directDns()
{
    std::ifstream file("/etc/resolv.conf");
    std::stringstream text;
    text << file.rdbuf();
    const auto servers = nameservers(text.str());
    if (servers.empty()) {
        return {"dns_direct", true, "no nameserver in /etc/resolv.conf"};
    }
    std::vector<std::string> seen;
    bool ok = true;
    for (const auto& server : servers) {
        if (isLoopback(server)) {
            seen.push_back(server + ": loopback");
            continue;
        }
        const auto route = routeTo(server, 53);
        ok = ok && !route.routed;
        seen.push_back(route.text);
    }
    return {"dns_direct", ok, "nameservers: " + joined(seen, "; ")};
}

Check metadataRoute()
{
    const auto route = routeTo("169.254.169.254", 80);
    return {"metadata_route", !route.routed,
            route.text + (route.routed ? " (whether a metadata service answers was not tested: that would send traffic)"
                                       : "")};
}

std::vector<std::string> nameservers(const std::string& resolvConf)
{
    std::vector<std::string> servers;
    std::istringstream lines(resolvConf);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string keyword, address;
        if (words >> keyword >> address && keyword == "nameserver") {
            servers.push_back(address.substr(0, address.find('%')));
        }
    }
    return servers;
}

}  // namespace moat::probe
