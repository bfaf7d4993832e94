// SPDX-License-Identifier: Apache-2.0
// Fuzzes the SOCKS5 greeting and CONNECT request parsers with whatever bytes
// an agent sends to the SOCKS port, and checks that reading incrementally
// cannot change the outcome.
#include "egress/socks5_messages.h"

#include <cstddef>
#include <cstdint>
#include <span>

using moat::Socks5Messages;
using Outcome = Socks5Messages::Outcome;

namespace {

void check(bool condition)
{
    if (!condition) {
        __builtin_trap();
    }
}

void fuzzGreeting(std::span<const std::uint8_t> bytes)
{
    const auto greeting = Socks5Messages::parseGreeting(bytes);
    check(greeting.consumed <= bytes.size());
    if (greeting.outcome != Outcome::Complete) {
        check(greeting.consumed == 0);
        return;
    }
    check(greeting.consumed >= 2 && greeting.consumed <= Socks5Messages::kMaxMessageLength);
    check(greeting.method == Socks5Messages::kNoAuthentication || greeting.method == Socks5Messages::kNoAcceptableMethod);
    // The same message, whole or cut one byte short.
    check(Socks5Messages::parseGreeting(bytes.first(greeting.consumed)).method == greeting.method);
    check(Socks5Messages::parseGreeting(bytes.first(greeting.consumed - 1)).outcome == Outcome::NeedMoreBytes);
}

void fuzzRequest(std::span<const std::uint8_t> bytes)
{
    const auto request = Socks5Messages::parseConnectRequest(bytes);
    check(request.consumed <= bytes.size());
    if (request.outcome == Outcome::Refused) {
        const auto reply = Socks5Messages::reply(request.refusal);
        check(reply[1] != 0x00 && !request.problem.empty());
    }
    if (request.outcome != Outcome::Complete) {
        check(request.consumed == 0);
        return;
    }
    // The shortest is a one-byte name: 4 + 1 + 1 + 2.
    check(request.consumed >= 8 && request.consumed <= Socks5Messages::kMaxMessageLength);
    check(!request.host.text.empty() && request.port != 0);
    const auto whole = Socks5Messages::parseConnectRequest(bytes.first(request.consumed));
    check(whole.outcome == Outcome::Complete && whole.host == request.host && whole.port == request.port);
    for (std::size_t length = 0; length < request.consumed; ++length) {
        check(Socks5Messages::parseConnectRequest(bytes.first(length)).outcome == Outcome::NeedMoreBytes);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::uint8_t> bytes(data, size);
    fuzzGreeting(bytes);
    fuzzRequest(bytes);
    // As the proxy sees them on one connection: a greeting, then a request.
    const auto greeting = Socks5Messages::parseGreeting(bytes);
    if (greeting.outcome == Outcome::Complete) {
        fuzzRequest(bytes.subspan(greeting.consumed));
    }
    return 0;
}
