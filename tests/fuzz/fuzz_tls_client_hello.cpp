// SPDX-License-Identifier: Apache-2.0
// Fuzzes the ClientHello reader with whatever bytes an agent sends first
// into a tunnel, and checks that reading incrementally cannot change the
// outcome: every prefix of a decided input is undecided or decides the same.
#include "egress/tls_client_hello.h"

#include <cstddef>
#include <cstdint>
#include <span>

using moat::TlsClientHello;
using Outcome = TlsClientHello::Outcome;

namespace {

void check(bool condition)
{
    if (!condition) {
        __builtin_trap();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::uint8_t> bytes(data, size);
    const auto parsed = TlsClientHello::parse(bytes);
    if (parsed.outcome == Outcome::Malformed) {
        check(!parsed.problem.empty());
    }
    if (parsed.hasServerName) {
        check(parsed.outcome == Outcome::Complete);
        check(!parsed.serverName.empty() && parsed.serverName.size() <= 255);
        for (char c : parsed.serverName) {
            check(c > 0x20 && c < 0x7f);
        }
    }
    if (parsed.outcome == Outcome::NeedMoreBytes) {
        check(size < TlsClientHello::kMaxBytes);
    }
    // A decision never needs bytes past the first record.
    if (size > TlsClientHello::kMaxBytes) {
        const auto first = TlsClientHello::parse(bytes.first(TlsClientHello::kMaxBytes));
        check(first.outcome == parsed.outcome && first.serverName == parsed.serverName);
    }
    // Prefixes: undecided, or (NotTls/Malformed may be decided early) the same.
    for (std::size_t length = 0; length < size && length < 600; ++length) {
        const auto prefix = TlsClientHello::parse(bytes.first(length));
        check(prefix.outcome == Outcome::NeedMoreBytes || prefix.outcome == parsed.outcome);
        if (prefix.outcome == Outcome::Complete) {
            check(prefix.serverName == parsed.serverName);
        }
    }
    return 0;
}
