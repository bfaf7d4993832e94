// SPDX-License-Identifier: Apache-2.0
// Fuzzes the DNS stub with any datagram an agent can send to the sandbox's
// nameserver, over both transports, and checks what the stub promises: no
// reply to a response, a reply never longer than the query, the query's ID,
// and a timeline name with no byte that could act on a terminal.
#include "egress/dns_stub_answer.h"

#include <cstddef>
#include <cstdint>
#include <span>

using moat::DnsStubAnswer;

namespace {

void check(bool condition)
{
    if (!condition) {
        __builtin_trap();
    }
}

void fuzzOne(std::span<const std::uint8_t> message, DnsStubAnswer::Transport transport)
{
    const DnsStubAnswer answer = DnsStubAnswer::answer(message, transport);
    const auto& reply = answer.reply();
    check(reply.size() <= message.size());
    if (answer.outcome() == DnsStubAnswer::Outcome::Dropped) {
        check(reply.empty());
        return;
    }
    check(reply.size() >= DnsStubAnswer::kHeaderLength);
    check((message[2] & 0x80) == 0);
    check(reply[0] == message[0] && reply[1] == message[1]);
    check((reply[2] & 0x80) != 0);
    if (answer.outcome() == DnsStubAnswer::Outcome::NxDomain) {
        check((reply[3] & 0x0f) == 3);
        check(!answer.name().empty() && !answer.type().empty());
        for (const char c : answer.name()) {
            check(c > 0x20 && c < 0x7f);
        }
    } else {
        check(reply.size() == DnsStubAnswer::kHeaderLength);
        check(answer.name().empty() && !answer.problem().empty());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::uint8_t> message(data, size);
    fuzzOne(message, DnsStubAnswer::Transport::Udp);
    fuzzOne(message, DnsStubAnswer::Transport::Tcp);
    return 0;
}
