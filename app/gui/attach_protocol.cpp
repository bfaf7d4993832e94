// SPDX-License-Identifier: Apache-2.0
#include "attach_protocol.h"

namespace moat::gui::attach {

namespace {

void putUint32(std::string* out, std::uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8) {
        out->push_back(static_cast<char>((value >> shift) & 0xff));
    }
}

std::uint32_t getUint32(std::string_view bytes)
{
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        value = (value << 8) | static_cast<unsigned char>(bytes[i]);
    }
    return value;
}

bool knownType(unsigned char type)
{
    switch (static_cast<FrameType>(type)) {
    case FrameType::Data:
    case FrameType::WindowSize:
    case FrameType::Ended:
    case FrameType::Refused:
    case FrameType::TakenOver:
        return true;
    }
    return false;
}

}  // namespace

std::string encode(FrameType type, std::string_view payload)
{
    std::string frame;
    frame.reserve(kHeaderSize + payload.size());
    frame.push_back(static_cast<char>(type));
    putUint32(&frame, static_cast<std::uint32_t>(payload.size()));
    frame.append(payload);
    return frame;
}

std::string encodeWindowSize(int rows, int columns)
{
    const auto clamp = [](int value) { return static_cast<unsigned>(value < 0 ? 0 : value > 0xffff ? 0xffff : value); };
    const unsigned r = clamp(rows);
    const unsigned c = clamp(columns);
    const char payload[4] = {static_cast<char>(r >> 8), static_cast<char>(r & 0xff), static_cast<char>(c >> 8),
                             static_cast<char>(c & 0xff)};
    return encode(FrameType::WindowSize, std::string_view(payload, sizeof payload));
}

std::string encodeEnded(int exitStatus)
{
    std::string payload;
    putUint32(&payload, static_cast<std::uint32_t>(exitStatus));
    return encode(FrameType::Ended, payload);
}

std::optional<std::pair<int, int>> decodeWindowSize(std::string_view payload)
{
    if (payload.size() != 4) {
        return std::nullopt;
    }
    const auto byte = [&payload](std::size_t i) { return static_cast<int>(static_cast<unsigned char>(payload[i])); };
    return std::make_pair((byte(0) << 8) | byte(1), (byte(2) << 8) | byte(3));
}

std::optional<int> decodeEnded(std::string_view payload)
{
    if (payload.size() != 4) {
        return std::nullopt;
    }
    return static_cast<int>(getUint32(payload));
}

void FrameReader::feed(const char* bytes, std::size_t size)
{
    if (start_ > 0 && start_ == buffer_.size()) {
        buffer_.clear();
        start_ = 0;
    }
    buffer_.append(bytes, size);
}

std::optional<Frame> FrameReader::next()
{
    if (broken_ || buffer_.size() - start_ < kHeaderSize) {
        return std::nullopt;
    }
    const std::string_view header(buffer_.data() + start_, kHeaderSize);
    const auto type = static_cast<unsigned char>(header[0]);
    const std::uint32_t length = getUint32(header.substr(1));
    if (!knownType(type) || length > kMaxPayload) {
        broken_ = true;
        return std::nullopt;
    }
    if (buffer_.size() - start_ - kHeaderSize < length) {
        return std::nullopt;
    }
    Frame frame{static_cast<FrameType>(type), buffer_.substr(start_ + kHeaderSize, length)};
    start_ += kHeaderSize + length;
    if (start_ > (1u << 16) && start_ * 2 > buffer_.size()) {
        buffer_.erase(0, start_);  // drop what was read, now and then
        start_ = 0;
    }
    return frame;
}

}  // namespace moat::gui::attach
