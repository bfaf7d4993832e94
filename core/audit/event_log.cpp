// SPDX-License-Identifier: Apache-2.0
#include "audit/event_log.h"

#include "audit/event_seal.h"
#include "audit/record_line.h"

#include <fcntl.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace moat {

Result<EventLog> EventLog::open(const std::string& path, const std::string& sessionId,
                                std::shared_ptr<const RecordKeys> keys)
{
    // Only digests, HMAC and Ed25519 are needed: skip reading openssl.cnf (a
    // measurable part of a session's start-up) and any provider it would load.
    OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr);
    if (!keys) {
        return Error{"the event log of session " + sessionId + " has no record keys", 0,
                     "moat-supervisor is started by moat, which passes them"};
    }
    auto mac = HmacSha256::create(keys->hmacKey(), RecordKeys::kHmacKeySize);
    if (!mac) {
        return mac.error();
    }
    EventLog log;
    log.fd_.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!log.fd_) {
        return Error::fromErrno("cannot open the session's event log " + path, errno);
    }
    log.path_ = path;
    log.session_ = sessionId;
    log.keys_ = std::move(keys);
    log.mac_ = std::make_unique<HmacSha256>(std::move(mac.value()));
    log.sha_ = std::make_unique<Sha256>();
    log.syncer_ = std::make_unique<LogSyncer>(log.fd_.get());
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
    return Sha256().hex(text);
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
    if (sealed_) {
        return Error{"the event log of session " + session_ + " is sealed: '" + type + "' was not recorded"};
    }
    nlohmann::json event = {{"seq", ++seq_},
                            {"ts", timestampNow()},
                            {"session", session_},
                            {"type", type},
                            {"data", std::move(data)},
                            {"prev", prev_}};
    if (seq_ == 1) {
        event["key"] = keys_->id();
    }
    const std::string body = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string line = record_line::withMac(body, mac_->hex(body));
    prev_ = sha_->hex(line);
    line += '\n';
    // One write() a line: a crash can tear only the last one.
    auto written = writeLine(fd_.get(), line);
    syncer_->written();
    if (mirror_) {
        (void)writeLine(mirror_.get(), line);
    }
    if (!written) {
        return written;
    }
    return syncer_->failure();
}

Status EventLog::seal()
{
    if (sealed_) {
        return {};
    }
    sealed_ = true;
    // The seal must never name a line that is not on disk.
    if (auto synced = syncer_->syncNow(); !synced) {
        return synced;
    }
    auto seal = EventSeal::make(session_, seq_, prev_, timestampNow(), *keys_);
    if (!seal) {
        return seal.error();
    }
    return seal->writeTo(EventSeal::pathFor(path_));
}

}  // namespace moat
