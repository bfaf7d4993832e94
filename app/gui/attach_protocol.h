// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// The framed protocol between moat-manager's TerminalRelay (the app, which
// holds a session's terminal) and `moat-manager --attach SOCKET` (the
// client, running in the user's terminal emulator), over a unix stream
// socket. Plain C++ without Qt: the client runs without a display.
//
// Every frame: one type byte, a 4-byte big-endian payload length, the
// payload (at most kMaxPayload bytes; a larger length ends the connection).
//
//   type  who sends     payload
//   'D'   both          data: client->app the bytes typed (written to the
//                       session's terminal); app->client the terminal's
//                       output, starting with the output so far
//   'W'   client        window size: rows, columns (2 bytes each, big-endian)
//   'E'   app           the session ended: its exit status (4 bytes, signed,
//                       big-endian); the app closes the connection after it
//   'R'   app           refused: a message for the person; the client prints
//                       it and exits 125
//   'T'   app           taken over by another client: a message; the client
//                       prints it and exits 0 (the session goes on)
namespace moat::gui::attach {

enum class FrameType : std::uint8_t {
    Data = 'D',
    WindowSize = 'W',
    Ended = 'E',
    Refused = 'R',
    TakenOver = 'T',
};

constexpr std::size_t kHeaderSize = 5;
constexpr std::uint32_t kMaxPayload = 1u << 20;

struct Frame {
    FrameType type = FrameType::Data;
    std::string payload;
};

std::string encode(FrameType type, std::string_view payload);
std::string encodeWindowSize(int rows, int columns);
std::string encodeEnded(int exitStatus);
// The values of a 'W' or an 'E' payload; nullopt when it has the wrong size.
std::optional<std::pair<int, int>> decodeWindowSize(std::string_view payload);
std::optional<int> decodeEnded(std::string_view payload);

// Collects bytes as they arrive and hands out whole frames.
class FrameReader
{
public:
    void feed(const char* bytes, std::size_t size);
    // The next whole frame, or nullopt when more bytes are needed (or the
    // stream is broken()).
    std::optional<Frame> next();
    // An unknown type or an oversized length arrived: the peer does not speak
    // this protocol, and nothing after it can be trusted to be framed.
    bool broken() const { return broken_; }

private:
    std::string buffer_;
    std::size_t start_ = 0;
    bool broken_ = false;
};

}  // namespace moat::gui::attach
