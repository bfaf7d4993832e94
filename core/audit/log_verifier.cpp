// SPDX-License-Identifier: Apache-2.0
#include "audit/log_verifier.h"

#include "audit/event_line.h"
#include "audit/event_seal.h"
#include "audit/hex.h"
#include "audit/hmac_sha256.h"
#include "audit/record_line.h"
#include "audit/sha256.h"
#include "base/unique_fd.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <openssl/crypto.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string_view>

namespace moat {

namespace {

constexpr size_t kExcerptSize = 200;
constexpr size_t kMaxSealSize = 64 * 1024;

// The file, mapped read-only: one pass over a million lines without copying.
class MappedFile {
public:
    static Result<MappedFile> open(const std::string& path)
    {
        UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (!fd) {
            return Error::fromErrno("cannot read " + path, errno);
        }
        struct stat info {};
        if (::fstat(fd.get(), &info) != 0) {
            return Error::fromErrno("cannot read " + path, errno);
        }
        if (!S_ISREG(info.st_mode)) {
            return Error{path + " is not a regular file"};
        }
        MappedFile file;
        file.size_ = static_cast<size_t>(info.st_size);
        if (file.size_ > 0) {
            void* data = ::mmap(nullptr, file.size_, PROT_READ, MAP_PRIVATE, fd.get(), 0);
            if (data == MAP_FAILED) {
                return Error::fromErrno("cannot read " + path, errno);
            }
            (void)::madvise(data, file.size_, MADV_SEQUENTIAL);
            file.data_ = static_cast<const char*>(data);
        }
        return file;
    }
    MappedFile(MappedFile&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0))
    {
    }
    MappedFile& operator=(MappedFile&&) = delete;
    ~MappedFile()
    {
        if (data_) {
            ::munmap(const_cast<char*>(data_), size_);
        }
    }
    std::string_view view() const { return {data_, size_}; }

private:
    MappedFile() = default;
    const char* data_ = nullptr;
    size_t size_ = 0;
};

std::string excerptOf(std::string_view line)
{
    std::string text(line.substr(0, kExcerptSize));
    for (char& c : text) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            c = '?';
        }
    }
    if (line.size() > kExcerptSize) {
        text += "...";
    }
    return text;
}

std::optional<std::string> readSmallFile(const std::string& path, Error* error)
{
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd) {
        if (errno != ENOENT) {
            *error = Error::fromErrno("cannot read " + path, errno);
        }
        return std::nullopt;
    }
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            *error = Error::fromErrno("cannot read " + path, errno);
            return std::nullopt;
        }
        if (n == 0) {
            return text;
        }
        text.append(buffer, static_cast<size_t>(n));
        if (text.size() > kMaxSealSize) {
            return text;  // not a seal moat wrote; parsing it says so
        }
    }
}

// One pass over the lines, with what the next line must match.
class Walk {
public:
    Walk(const LogVerifier::KeyLookup& lookup, const std::string& sessionId, LogVerdict& verdict)
        : lookup_(lookup), session_(sessionId), verdict_(verdict)
    {
    }

    // False at the first line that does not check out (verdict filled in).
    bool check(std::string_view line, uint64_t n)
    {
        const auto parts = record_line::split(line);
        if (!parts) {
            return broken(n, line, "it does not end in a mac: it was not written by moat, or was edited");
        }
        const auto event = EventLine::scan(line);
        if (!event) {
            return broken(n, line, "it is not a JSON object");
        }
        if (n == 1 && !useKeysOf(*event, line)) {
            return false;
        }
        const HmacSha256::Mac expected = mac_->mac(parts->head, "}");
        HmacSha256::Mac found{};
        if (!hex::decode(parts->mac, found.data(), found.size()) ||
            CRYPTO_memcmp(expected.data(), found.data(), expected.size()) != 0) {
            return broken(n, line,
                          "its mac does not match its content: the line was changed after moat wrote it, or "
                          "written by someone without the record key");
        }
        if (!event->seq) {
            return broken(n, line, "it has no seq");
        }
        if (const uint64_t seq = *event->seq; seq != n) {
            return broken(n, line,
                          "its seq is " + std::to_string(seq) + " where " + std::to_string(n) + " was expected: " +
                              (seq > n ? "the line(s) before it were removed, or lines were moved"
                                       : "a line was copied, inserted or moved here"));
        }
        if (!event->hasSession || event->session != session_) {
            return broken(n, line,
                          "it belongs to another session (" +
                              (event->hasSession ? std::string(event->session) : std::string("none")) + ")");
        }
        if (!event->hasPrev || event->prev != prev_) {
            return broken(n, line,
                          "its prev does not match the line before it: a line before it was removed, changed or "
                          "moved");
        }
        prev_ = sha_.hex(line);
        return true;
    }

    const std::string& head() const { return prev_; }
    const std::shared_ptr<const RecordKeys>& keys() const { return keys_; }

    bool broken(uint64_t n, std::string_view line, std::string problem)
    {
        verdict_.outcome = LogVerdict::Outcome::Broken;
        verdict_.badLine = n;
        verdict_.excerpt = excerptOf(line);
        verdict_.problem = std::move(problem);
        return false;
    }

    // The keys for a log that names `keyId` (line 1, or a seal of an empty log).
    bool useKeys(const std::string& keyId)
    {
        verdict_.keyId = keyId;
        auto keys = lookup_(keyId);
        if (!keys) {
            verdict_.outcome = LogVerdict::Outcome::Unverifiable;
            verdict_.problem = keys.error().message();
            return false;
        }
        keys_ = std::move(keys.value());
        auto mac = HmacSha256::create(keys_->hmacKey(), RecordKeys::kHmacKeySize);
        if (!mac) {
            verdict_.outcome = LogVerdict::Outcome::Unverifiable;
            verdict_.problem = mac.error().message();
            return false;
        }
        mac_.emplace(std::move(mac.value()));
        return true;
    }

private:
    bool useKeysOf(const EventLine& event, std::string_view line)
    {
        if (!event.hasKey || event.key.empty()) {
            return broken(1, line, "the first line names no record key");
        }
        return useKeys(std::string(event.key));
    }

    const LogVerifier::KeyLookup& lookup_;
    const std::string& session_;
    LogVerdict& verdict_;
    std::shared_ptr<const RecordKeys> keys_;
    std::optional<HmacSha256> mac_;
    Sha256 sha_;
    std::string prev_ = std::string(64, '0');
};

}  // namespace

LogVerdict LogVerifier::verify(const std::string& eventsPath, const std::string& sessionId, SessionState state) const
{
    LogVerdict verdict;
    auto file = MappedFile::open(eventsPath);
    if (!file) {
        verdict.problem = file.error().message();
        return verdict;
    }
    const std::string sealPath = EventSeal::pathFor(eventsPath);
    Error sealError;
    const std::optional<std::string> sealText = readSmallFile(sealPath, &sealError);
    if (!sealText && !sealError.what.empty()) {
        verdict.problem = sealError.message();
        return verdict;
    }
    std::optional<EventSeal> seal;
    if (sealText) {
        auto parsed = EventSeal::parse(*sealText);
        if (!parsed) {
            verdict.outcome = LogVerdict::Outcome::Broken;
            verdict.badLine = 0;
            verdict.problem = parsed.error().message();
            return verdict;
        }
        seal = std::move(parsed.value());
    }

    Walk walk(lookup_, sessionId, verdict);
    // The seal is judged as soon as the log's keys are known (after line 1,
    // or at once for an empty log): from then on its line count and head can
    // be trusted to say where the log ends.
    bool sealTrusted = false;
    auto trustSeal = [&]() {
        if (seal->session != sessionId) {
            return walk.broken(0, {}, "the seal belongs to another session (" + seal->session + ")");
        }
        if (seal->key != verdict.keyId) {
            return walk.broken(0, {}, "the seal names record key " + seal->key + ", the log " + verdict.keyId);
        }
        const ed25519::PublicKey& userKey = walk.keys()->publicKey();
        if (seal->publicKey != hex::encode(userKey.data(), userKey.size()) || !seal->signedBy(userKey)) {
            return walk.broken(0, {}, "the seal's signature is not by the user's record key " + verdict.keyId);
        }
        sealTrusted = true;
        return true;
    };

    const std::string_view content = file->view();
    size_t position = 0;
    uint64_t n = 0;
    while (position < content.size()) {
        const size_t end = content.find('\n', position);
        if (end == std::string_view::npos) {
            verdict.tornTailBytes = content.size() - position;
            break;
        }
        const std::string_view line = content.substr(position, end - position);
        ++n;
        if (sealTrusted && n == seal->lines + 1) {
            walk.broken(n, line,
                        "the session was sealed after line " + std::to_string(seal->lines) +
                            ": this line was added after its end");
            return verdict;
        }
        if (!walk.check(line, n)) {
            return verdict;
        }
        if (n == 1 && seal && !trustSeal()) {
            return verdict;
        }
        if (sealTrusted && n == seal->lines && walk.head() != seal->head) {
            walk.broken(n, line, "the seal signed a different last line (its hash is not this line's)");
            return verdict;
        }
        verdict.lines = n;
        position = end + 1;
    }

    if (!seal) {
        switch (state) {
            case SessionState::Running:
                verdict.ending = LogVerdict::Ending::Running;
                break;
            case SessionState::Unknown:
                verdict.ending = LogVerdict::Ending::Unsealed;
                break;
            case SessionState::Ended:
                walk.broken(n + 1, {},
                            "the session ended, but its log has no seal (events.seal): the seal was removed, and lines "
                            "may have been cut from the end");
                return verdict;
        }
        verdict.outcome = LogVerdict::Outcome::Intact;
        return verdict;
    }

    if (!sealTrusted) {
        // An empty log (or one torn line): the seal names the keys.
        if (!walk.useKeys(seal->key) || !trustSeal()) {
            return verdict;
        }
    }
    if (n < seal->lines) {
        if (verdict.tornTailBytes > 0) {
            walk.broken(n + 1, content.substr(position),
                        "it is cut short (no newline), but the seal covers " + std::to_string(seal->lines) +
                            " whole lines: the log was truncated after it was sealed");
        } else {
            walk.broken(n + 1, {},
                        "the seal covers " + std::to_string(seal->lines) + " lines, the log has " + std::to_string(n) +
                            ": lines from here to its end were removed");
        }
        return verdict;
    }
    if (verdict.tornTailBytes > 0) {
        walk.broken(n + 1, content.substr(position), "bytes follow the sealed end of the log");
        return verdict;
    }
    if (n == 0 && seal->head != std::string(64, '0')) {
        walk.broken(1, {}, "the seal signed a line the log does not have");
        return verdict;
    }
    verdict.outcome = LogVerdict::Outcome::Intact;
    verdict.ending = LogVerdict::Ending::Sealed;
    return verdict;
}

}  // namespace moat
