// SPDX-License-Identifier: Apache-2.0
#include "audit/event_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace moat {

Result<EventLog> EventLog::open(const std::string& path, const std::string& sessionId)
{
    // Only digests are needed: skip reading openssl.cnf (a measurable part of
    // a session's start-up) and any provider it would load.
    OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr);
    EventLog log;
    log.fd_.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!log.fd_) {
        return Error::fromErrno("cannot open the session's event log " + path, errno);
    }
    log.session_ = sessionId;
    return log;
}

Status EventLog::mirrorTo(const std::string& path)
{
    mirror_.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (!mirror_) {
        return Error::fromErrno("--json-events: cannot write " + path, errno, "Give a file path you can write");
    }
    return {};
}

std::string EventLog::sha256Hex(const std::string& text)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < length; ++i) {
        hex += kHex[digest[i] >> 4];
        hex += kHex[digest[i] & 0xf];
    }
    return hex;
}

std::string EventLog::timestampNow()
{
    const auto now = std::chrono::system_clock::now();
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[96];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
    return text;
}

Status EventLog::writeLine(int fd, const std::string& line)
{
    size_t done = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return Error::fromErrno("cannot write an event", errno);
        }
        done += static_cast<size_t>(n);
    }
    return {};
}

Status EventLog::append(const std::string& type, nlohmann::json data)
{
    nlohmann::json event = {{"seq", ++seq_},
                            {"ts", timestampNow()},
                            {"session", session_},
                            {"type", type},
                            {"data", std::move(data)},
                            {"prev", prev_}};
    const std::string line = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    prev_ = sha256Hex(line);
    auto written = writeLine(fd_.get(), line + "\n");
    if (mirror_) {
        (void)writeLine(mirror_.get(), line + "\n");
    }
    return written;
}

}  // namespace moat
