// SPDX-License-Identifier: Apache-2.0
#include "egress/dns_stub_answer.h"

#include <array>
#include <utility>

namespace moat {

namespace {

constexpr std::uint8_t kFlagResponse = 0x80;  // QR, in the third header byte
constexpr std::uint8_t kFlagRecursionDesired = 0x01;
constexpr std::uint8_t kOpcodeMask = 0x78;
constexpr std::uint8_t kRcodeFormatError = 1;
constexpr std::uint8_t kRcodeNxDomain = 3;
constexpr std::uint8_t kRcodeNotImplemented = 4;
constexpr std::uint8_t kLabelPointerBits = 0xc0;
constexpr std::uint16_t kTypeOpt = 41;
constexpr std::size_t kOptFixedLength = 1 + 2 + 2 + 4 + 2;  // root name, TYPE, CLASS, TTL, RDLENGTH

std::uint16_t read16(std::span<const std::uint8_t> bytes, std::size_t at)
{
    return static_cast<std::uint16_t>((bytes[at] << 8) | bytes[at + 1]);
}

// The reply header: the query's ID, QR set, its opcode, RD copied; AA, TC,
// RA, AD, CD clear; one question or none.
std::vector<std::uint8_t> replyHeader(std::span<const std::uint8_t> query, std::uint8_t rcode, bool withQuestion)
{
    const auto flags =
        static_cast<std::uint8_t>(kFlagResponse | (query[2] & kOpcodeMask) | (query[2] & kFlagRecursionDesired));
    return {query[0], query[1], flags, rcode, 0, static_cast<std::uint8_t>(withQuestion ? 1 : 0), 0, 0, 0, 0, 0, 0};
}

void appendEscaped(std::string& out, std::uint8_t byte)
{
    if (byte >= 'A' && byte <= 'Z') {
        out += static_cast<char>(byte - 'A' + 'a');
    } else if (byte == '.' || byte == '\\') {
        out += '\\';
        out += static_cast<char>(byte);
    } else if (byte > 0x20 && byte < 0x7f) {
        out += static_cast<char>(byte);
    } else {
        out += '\\';
        out += static_cast<char>('0' + byte / 100);
        out += static_cast<char>('0' + byte / 10 % 10);
        out += static_cast<char>('0' + byte % 10);
    }
}

struct Question {
    std::size_t end = 0;  // offset just past QCLASS; 0 when the question is unreadable
    std::string name;
    std::string problem;
};

// The question's name is read label by label, each length checked against
// what is left of the message before a byte of the label is touched.
Question readQuestion(std::span<const std::uint8_t> message)
{
    Question question;
    std::size_t at = DnsStubAnswer::kHeaderLength;
    std::size_t wireLength = 0;
    while (true) {
        if (at >= message.size()) {
            question.problem = "the question is cut short";
            return question;
        }
        const std::uint8_t length = message[at];
        if ((length & kLabelPointerBits) == kLabelPointerBits) {
            // Nothing precedes the first question to point at; a pointer here is a trick.
            question.problem = "the question's name uses a compression pointer";
            return question;
        }
        if (length > DnsStubAnswer::kMaxLabelLength) {
            question.problem = "the question's name has an unknown label type";
            return question;
        }
        wireLength += 1 + std::size_t{length};
        if (wireLength > DnsStubAnswer::kMaxNameLength) {
            question.problem = "the question's name is longer than 255 bytes";
            return question;
        }
        if (length == 0) {
            ++at;
            break;
        }
        if (message.size() - at - 1 < length) {
            question.problem = "the question is cut short";
            return question;
        }
        if (!question.name.empty()) {
            question.name += '.';
        }
        for (std::size_t i = 0; i < length; ++i) {
            appendEscaped(question.name, message[at + 1 + i]);
        }
        at += 1 + std::size_t{length};
    }
    if (message.size() - at < 4) {
        question.problem = "the question is cut short";
        return question;
    }
    if (question.name.empty()) {
        question.name = ".";
    }
    question.end = at + 4;
    return question;
}

// ARCOUNT 1 is allowed for the EDNS OPT record (RFC 6891) that most
// resolvers add; it is checked to fit and otherwise ignored, and the reply
// carries none, as a server without EDNS would answer.
std::string checkAdditional(std::span<const std::uint8_t> message, std::size_t at, std::uint16_t count)
{
    if (count == 0) {
        return at == message.size() ? std::string() : "bytes follow the question";
    }
    if (message.size() - at < kOptFixedLength) {
        return "the additional record is cut short";
    }
    if (message[at] != 0 || read16(message, at + 1) != kTypeOpt) {
        return "the additional record is not an EDNS OPT record";
    }
    const std::size_t rdlength = read16(message, at + kOptFixedLength - 2);
    if (message.size() - at - kOptFixedLength != rdlength) {
        return "the OPT record's length does not match the message";
    }
    return {};
}

}  // namespace

DnsStubAnswer DnsStubAnswer::answer(std::span<const std::uint8_t> message, Transport transport)
{
    DnsStubAnswer result;
    const std::size_t limit = transport == Transport::Udp ? kMaxUdpMessage : kMaxTcpMessage;
    if (message.size() > limit) {
        result.problem_ = "the message is longer than " + std::to_string(limit) + " bytes";
        return result;
    }
    if (message.size() < kHeaderLength) {
        result.problem_ = "the message is shorter than a DNS header";
        return result;
    }
    if ((message[2] & kFlagResponse) != 0) {
        result.problem_ = "the message is a response, not a query";
        return result;
    }
    const auto refuse = [&](Outcome outcome, std::uint8_t rcode, std::string problem) {
        result.outcome_ = outcome;
        result.reply_ = replyHeader(message, rcode, false);
        result.problem_ = std::move(problem);
        return std::move(result);
    };
    if ((message[2] & kOpcodeMask) != 0) {
        return refuse(Outcome::NotImplemented, kRcodeNotImplemented,
                      "opcode " + std::to_string((message[2] & kOpcodeMask) >> 3) + " is not a standard query");
    }
    if (read16(message, 4) != 1) {
        return refuse(Outcome::FormatError, kRcodeFormatError, "the query does not have exactly one question");
    }
    if (read16(message, 6) != 0 || read16(message, 8) != 0) {
        return refuse(Outcome::FormatError, kRcodeFormatError, "the query has answer or authority records");
    }
    const std::uint16_t additional = read16(message, 10);
    if (additional > 1) {
        return refuse(Outcome::FormatError, kRcodeFormatError, "the query has more than one additional record");
    }
    Question question = readQuestion(message);
    if (question.end == 0) {
        return refuse(Outcome::FormatError, kRcodeFormatError, std::move(question.problem));
    }
    if (std::string problem = checkAdditional(message, question.end, additional); !problem.empty()) {
        return refuse(Outcome::FormatError, kRcodeFormatError, std::move(problem));
    }

    result.outcome_ = Outcome::NxDomain;
    result.reply_ = replyHeader(message, kRcodeNxDomain, true);
    result.reply_.insert(result.reply_.end(), message.begin() + kHeaderLength,
                         message.begin() + static_cast<std::ptrdiff_t>(question.end));
    result.name_ = std::move(question.name);
    result.qtype_ = read16(message, question.end - 4);
    result.qclass_ = read16(message, question.end - 2);
    result.type_ = typeName(result.qtype_);
    return result;
}

std::string DnsStubAnswer::typeName(std::uint16_t qtype)
{
    static constexpr std::array<std::pair<std::uint16_t, const char*>, 29> kNames{{
        {1, "A"},      {2, "NS"},     {5, "CNAME"},   {6, "SOA"},    {10, "NULL"},  {12, "PTR"},
        {13, "HINFO"}, {15, "MX"},    {16, "TXT"},    {17, "RP"},    {18, "AFSDB"}, {28, "AAAA"},
        {29, "LOC"},   {33, "SRV"},   {35, "NAPTR"},  {39, "DNAME"}, {41, "OPT"},   {43, "DS"},
        {46, "RRSIG"}, {47, "NSEC"},  {48, "DNSKEY"}, {52, "TLSA"},  {64, "SVCB"},  {65, "HTTPS"},
        {99, "SPF"},   {251, "IXFR"}, {252, "AXFR"},  {255, "ANY"},  {257, "CAA"},
    }};
    for (const auto& [number, name] : kNames) {
        if (number == qtype) {
            return name;
        }
    }
    return "TYPE" + std::to_string(qtype);
}

}  // namespace moat
