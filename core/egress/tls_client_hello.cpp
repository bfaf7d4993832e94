// SPDX-License-Identifier: Apache-2.0
#include "egress/tls_client_hello.h"

#include <optional>

namespace moat {

namespace {

constexpr std::uint8_t kHandshakeRecord = 0x16;
constexpr std::uint8_t kClientHello = 0x01;
constexpr std::uint16_t kServerNameExtension = 0x0000;
constexpr std::uint8_t kHostNameType = 0x00;
constexpr std::size_t kRandomLength = 32;
constexpr std::size_t kMaxSessionIdLength = 32;
constexpr std::size_t kMaxHostNameLength = 255;

// A cursor over bytes already known to be present; every read checks the end.
class Reader {
public:
    explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

    std::size_t remaining() const { return bytes_.size() - offset_; }

    std::optional<std::uint32_t> number(std::size_t width)
    {
        if (remaining() < width) {
            return std::nullopt;
        }
        std::uint32_t value = 0;
        for (std::size_t i = 0; i < width; ++i) {
            value = (value << 8) | bytes_[offset_ + i];
        }
        offset_ += width;
        return value;
    }

    std::optional<std::span<const std::uint8_t>> take(std::size_t length)
    {
        if (remaining() < length) {
            return std::nullopt;
        }
        auto part = bytes_.subspan(offset_, length);
        offset_ += length;
        return part;
    }

    // A vector of bytes with a `width`-byte length prefix.
    std::optional<std::span<const std::uint8_t>> prefixed(std::size_t width)
    {
        auto length = number(width);
        if (!length) {
            return std::nullopt;
        }
        return take(*length);
    }

private:
    std::span<const std::uint8_t> bytes_;
    std::size_t offset_ = 0;
};

TlsClientHello::Parsed malformed(std::string problem)
{
    TlsClientHello::Parsed parsed;
    parsed.outcome = TlsClientHello::Outcome::Malformed;
    parsed.problem = std::move(problem);
    return parsed;
}

// server_name extension body (RFC 6066 3): a list of (type, name) entries.
bool readServerName(std::span<const std::uint8_t> body, TlsClientHello::Parsed& parsed)
{
    Reader reader(body);
    auto list = reader.prefixed(2);
    if (!list || reader.remaining() != 0 || list->empty()) {
        parsed = malformed("the TLS server_name extension is malformed");
        return false;
    }
    Reader entries(*list);
    while (entries.remaining() > 0) {
        auto type = entries.number(1);
        auto name = entries.prefixed(2);
        if (!type || !name) {
            parsed = malformed("the TLS server_name extension is malformed");
            return false;
        }
        if (*type != kHostNameType) {
            continue;  // no other name type is defined; servers ignore them
        }
        if (parsed.hasServerName) {
            parsed = malformed("the TLS ClientHello names more than one server");
            return false;
        }
        if (name->empty() || name->size() > kMaxHostNameLength) {
            parsed = malformed("the TLS server name is empty or too long");
            return false;
        }
        for (std::uint8_t byte : *name) {
            if (byte <= 0x20 || byte >= 0x7f) {
                parsed = malformed("the TLS server name is not printable ASCII");
                return false;
            }
        }
        parsed.hasServerName = true;
        parsed.serverName.assign(name->begin(), name->end());
    }
    return true;
}

}  // namespace

TlsClientHello::Parsed TlsClientHello::parse(std::span<const std::uint8_t> bytes)
{
    Parsed parsed;
    if (bytes.empty()) {
        return parsed;
    }
    if (bytes[0] != kHandshakeRecord) {
        parsed.outcome = Outcome::NotTls;
        return parsed;
    }
    if (bytes.size() < kRecordHeaderLength) {
        return parsed;
    }
    // Record version: 0x0301..0x0303 in practice; any 0x03xx is TLS.
    if (bytes[1] != 0x03) {
        return malformed("the TLS record has an unknown version");
    }
    const std::size_t recordLength = (std::size_t{bytes[3]} << 8) | bytes[4];
    if (recordLength == 0 || recordLength > kMaxRecordLength) {
        return malformed("the TLS record length is out of range");
    }
    if (bytes.size() < kRecordHeaderLength + recordLength) {
        return parsed;  // NeedMoreBytes
    }

    Reader record(bytes.subspan(kRecordHeaderLength, recordLength));
    auto handshakeType = record.number(1);
    auto handshakeLength = record.number(3);
    if (!handshakeType || !handshakeLength) {
        return malformed("the TLS handshake header is truncated");
    }
    if (*handshakeType != kClientHello) {
        return malformed("the first TLS handshake message is not a ClientHello");
    }
    // A ClientHello continued in a second record is legal but rare; reading
    // only part of it could miss a server name, so it is refused.
    auto helloBody = record.take(*handshakeLength);
    if (!helloBody) {
        return malformed("the TLS ClientHello does not fit in its first record");
    }

    Reader hello(*helloBody);
    auto sessionId = hello.take(2 + kRandomLength) ? hello.prefixed(1) : std::nullopt;
    if (!sessionId || sessionId->size() > kMaxSessionIdLength) {
        return malformed("the TLS ClientHello is truncated");
    }
    auto cipherSuites = hello.prefixed(2);
    auto compression = hello.prefixed(1);
    if (!cipherSuites || cipherSuites->empty() || cipherSuites->size() % 2 != 0 || !compression ||
        compression->empty()) {
        return malformed("the TLS ClientHello is truncated");
    }
    parsed.outcome = Outcome::Complete;
    if (hello.remaining() == 0) {
        return parsed;  // no extensions at all: no server name
    }
    auto extensions = hello.prefixed(2);
    if (!extensions || hello.remaining() != 0) {
        return malformed("the TLS ClientHello extensions are malformed");
    }
    Reader list(*extensions);
    bool sawServerName = false;
    while (list.remaining() > 0) {
        auto type = list.number(2);
        auto body = list.prefixed(2);
        if (!type || !body) {
            return malformed("the TLS ClientHello extensions are malformed");
        }
        if (*type != kServerNameExtension) {
            continue;
        }
        // RFC 8446 4.2: at most one extension of each type.
        if (sawServerName) {
            return malformed("the TLS ClientHello has two server_name extensions");
        }
        sawServerName = true;
        if (!readServerName(*body, parsed)) {
            return parsed;
        }
    }
    return parsed;
}

}  // namespace moat
