// SPDX-License-Identifier: Apache-2.0
// Fuzzes RequestTarget with what an agent can put in a request line and its
// Host headers. Input: "METHOD TARGET" on the first line, then one Host
// header value per line. Beyond "no crash, no out-of-bounds read", it checks
// the promises the proxy relies on.
#include "egress/request_target.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

using moat::RequestTarget;

namespace {

void check(bool condition)
{
    if (!condition) {
        __builtin_trap();
    }
}

bool isVisibleAscii(std::string_view text)
{
    for (const char c : text) {
        if (c <= 0x20 || c >= 0x7f) {
            return false;
        }
    }
    return true;
}

void checkDestination(const RequestTarget& target)
{
    check(target.kind() != RequestTarget::Kind::Origin);
    check(!target.host().empty() && target.host().size() <= RequestTarget::kMaxHostLength);
    check(isVisibleAscii(target.host()));
    check(target.host().find_first_of("@%:/?#[]") == std::string::npos || target.hostKind() == RequestTarget::HostKind::Ipv6);
    check(target.port() != 0);
    if (target.kind() == RequestTarget::Kind::Absolute) {
        check(!target.path().empty() && target.path().front() == '/');
    }
    // The destination is stable: written as a CONNECT target, it reads back the same.
    const auto again = RequestTarget::parse("CONNECT", target.authority(), {});
    check(again.ok());
    check(again->host() == target.host() && again->port() == target.port() && again->hostKind() == target.hostKind());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t lineEnd = input.find('\n');
    const std::string_view requestLine = input.substr(0, lineEnd);
    const std::size_t space = requestLine.find(' ');
    const std::string_view method = space == std::string_view::npos ? std::string_view("GET") : requestLine.substr(0, space);
    const std::string_view target = space == std::string_view::npos ? requestLine : requestLine.substr(space + 1);

    std::vector<std::string_view> hosts;
    std::size_t at = lineEnd;
    while (at != std::string_view::npos && hosts.size() < 3) {
        const std::size_t next = input.find('\n', at + 1);
        hosts.push_back(input.substr(at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1));
        at = next;
    }

    const auto parsed = RequestTarget::parse(method, target, hosts);
    if (parsed.ok()) {
        checkDestination(parsed.value());
        check(hosts.size() <= 1);
        check(target.size() <= RequestTarget::kMaxTargetLength);
    } else {
        check(!parsed.error().what.empty());
    }

    const auto origin = RequestTarget::parseOriginForm(method, target);
    if (origin.ok()) {
        check(origin->host().empty() && origin->port() == 0 && origin->path() == target);
    }

    const auto host = RequestTarget::parseHost(input);
    if (host.ok()) {
        check(!host->text.empty() && host->text.size() <= RequestTarget::kMaxHostLength);
        check(isVisibleAscii(host->text));
    }
    return 0;
}
