// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace moat {

// What moat's DNS stub answers to one message received on the nameserver
// address of the sandbox's resolv.conf. The stub resolves nothing: every
// well-formed query gets NXDOMAIN, so the agent learns nothing and can carry
// nothing out through DNS (the query never leaves the sandbox's network
// namespace), and the timeline shows the name it tried.
//
// The sender is the hostile agent. The message is read strictly within the
// span given; nothing in it is trusted beyond what is checked here.
//
// Outcomes and why:
// - NxDomain: a standard query (QR=0, OPCODE=0, QDCOUNT=1, ANCOUNT=NSCOUNT=0,
//   ARCOUNT 0 or one EDNS OPT record, nothing after). The reply is the header
//   with QR=1, RD copied, AA=RA=0, RCODE=3, and the question copied.
// - FormatError / NotImplemented: a query (QR=0) whose 12-byte header is
//   readable but whose body is not a single plain question, or whose opcode
//   is not QUERY. The reply is a bare header (ID, opcode and RD copied, all
//   counts 0) with RCODE 1 or 4. Answering ends the sender's wait at once:
//   silence would leave an ordinary resolver retrying for seconds per
//   nameserver, and a reply is never longer than the query, so answering
//   amplifies nothing.
// - Dropped: no reply. For responses (QR=1), because answering a response is
//   how two DNS speakers end up in a loop; for messages shorter than a
//   header (no ID to answer) or longer than the transport allows (no
//   resolver sends that; it is not read further).
class DnsStubAnswer {
public:
    enum class Transport { Udp, Tcp };  // Tcp: one message, without its 2-byte length
    enum class Outcome { NxDomain, FormatError, NotImplemented, Dropped };

    static constexpr std::size_t kHeaderLength = 12;
    static constexpr std::size_t kMaxUdpMessage = 512;
    static constexpr std::size_t kMaxTcpMessage = 65535;
    static constexpr std::size_t kMaxNameLength = 255;  // wire form, length bytes included
    static constexpr std::size_t kMaxLabelLength = 63;

    [[nodiscard]] static DnsStubAnswer answer(std::span<const std::uint8_t> message, Transport transport);

    Outcome outcome() const { return outcome_; }
    // The bytes to send back (over TCP, after a 2-byte length); empty when Dropped.
    const std::vector<std::uint8_t>& reply() const { return reply_; }
    // For NxDomain: the queried name in presentation form, lower case, without
    // the final dot ("." for the root), with '.', '\' and every byte that is not
    // visible ASCII written as \DDD (RFC 1035 5.1), so no byte of it can act
    // on a terminal or split a timeline field.
    const std::string& name() const { return name_; }
    // For NxDomain: the QTYPE mnemonic ("A", "AAAA", "HTTPS"...) or "TYPE123" (RFC 3597).
    const std::string& type() const { return type_; }
    std::uint16_t qtype() const { return qtype_; }
    std::uint16_t qclass() const { return qclass_; }
    // For every other outcome: why, for the timeline.
    const std::string& problem() const { return problem_; }

    static std::string typeName(std::uint16_t qtype);

private:
    DnsStubAnswer() = default;

    Outcome outcome_ = Outcome::Dropped;
    std::vector<std::uint8_t> reply_;
    std::string name_;
    std::string type_;
    std::uint16_t qtype_ = 0;
    std::uint16_t qclass_ = 0;
    std::string problem_;
};

}  // namespace moat
