// SPDX-License-Identifier: Apache-2.0
#include "audit/record_keys.h"

#include "audit/hex.h"
#include "audit/sha256.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace moat {

namespace {

constexpr size_t kPageSize = 4096;
// The hand-off's layout, which is also the page's: magic, HMAC key, seed,
// then the location (not secret) up to the end of the page.
constexpr char kMagic[8] = {'M', 'O', 'A', 'T', 'K', 'E', 'Y', '1'};
constexpr size_t kHmacOffset = sizeof kMagic;
constexpr size_t kSeedOffset = kHmacOffset + RecordKeys::kHmacKeySize;
constexpr size_t kLocationOffset = kSeedOffset + ed25519::kSeedSize;
constexpr std::string_view kTextPrefix = "moat-record-keys-v1 ";

}  // namespace

struct RecordKeys::Page {
    unsigned char* bytes = nullptr;
    // Not secret; derived once, on first use.
    std::once_flag derived;
    std::string id;
    ed25519::PublicKey publicKey{};

    static Result<std::unique_ptr<Page>> allocate()
    {
        // Every way to keys starts here. Only digests, HMAC and Ed25519 are
        // needed: skip reading openssl.cnf (a measurable part of a session's
        // start-up, in moat and again in moat-supervisor) and any provider
        // it would load.
        OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr);
        void* memory = ::mmap(nullptr, kPageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED) {
            return Error::fromErrno("cannot allocate memory for the record keys", errno);
        }
        // Wiped in children: the one property that keeps the keys out of
        // sandbox init, so it is the one that must hold.
        if (::madvise(memory, kPageSize, MADV_WIPEONFORK) != 0) {
            const int err = errno;
            ::munmap(memory, kPageSize);
            return Error::fromErrno("cannot keep the record keys out of child processes (MADV_WIPEONFORK)", err,
                                    "moat needs Linux 4.14 or later");
        }
        // Best effort: out of core dumps, never swapped.
        (void)::madvise(memory, kPageSize, MADV_DONTDUMP);
        (void)::mlock(memory, kPageSize);
        auto page = std::make_unique<Page>();
        page->bytes = static_cast<unsigned char*>(memory);
        std::memcpy(page->bytes, kMagic, sizeof kMagic);
        return page;
    }

    ~Page()
    {
        OPENSSL_cleanse(bytes, kPageSize);
        ::munlock(bytes, kPageSize);
        ::munmap(bytes, kPageSize);
    }
};

RecordKeys::RecordKeys(std::unique_ptr<Page> page) : page_(std::move(page)) {}
RecordKeys::~RecordKeys() = default;
RecordKeys::RecordKeys(RecordKeys&&) noexcept = default;
RecordKeys& RecordKeys::operator=(RecordKeys&&) noexcept = default;

const unsigned char* RecordKeys::hmacKey() const
{
    return page_->bytes + kHmacOffset;
}

const unsigned char* RecordKeys::signingSeed() const
{
    return page_->bytes + kSeedOffset;
}

void RecordKeys::wipe(std::string& text)
{
    OPENSSL_cleanse(text.data(), text.size());
    text.clear();
}

void RecordKeys::derivePublicParts() const
{
    std::call_once(page_->derived, [this] {
        auto derived = ed25519::publicKey(signingSeed());
        if (!derived) {
            std::abort();  // any 32 bytes are a seed: only a broken OpenSSL gets here
        }
        page_->publicKey = derived.value();
        const auto& key = page_->publicKey;
        page_->id = Sha256().hex(std::string_view(reinterpret_cast<const char*>(key.data()), key.size())).substr(0, 16);
    });
}

const std::string& RecordKeys::id() const
{
    derivePublicParts();
    return page_->id;
}

const ed25519::PublicKey& RecordKeys::publicKey() const
{
    derivePublicParts();
    return page_->publicKey;
}

Result<RecordKeys> RecordKeys::generate()
{
    auto page = Page::allocate();
    if (!page) {
        return page.error();
    }
    RecordKeys keys(std::move(page.value()));
    if (RAND_priv_bytes(keys.page_->bytes + kHmacOffset, kHmacKeySize) != 1 ||
        RAND_priv_bytes(keys.page_->bytes + kSeedOffset, ed25519::kSeedSize) != 1) {
        return Error{"cannot make random record keys: OpenSSL's random generator failed"};
    }
    return keys;
}

Result<RecordKeys> RecordKeys::fromText(std::string_view text)
{
    const Error malformed{"the stored record keys are not in moat's format", 0,
                          "Expected 'moat-record-keys-v1 HMAC-KEY-HEX ED25519-SEED-HEX' (docs/records.md)"};
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
        text.remove_suffix(1);
    }
    if (text.substr(0, kTextPrefix.size()) != kTextPrefix) {
        return malformed;
    }
    text.remove_prefix(kTextPrefix.size());
    const size_t space = text.find(' ');
    if (space == std::string_view::npos) {
        return malformed;
    }
    auto page = Page::allocate();
    if (!page) {
        return page.error();
    }
    RecordKeys keys(std::move(page.value()));
    if (!hex::decode(text.substr(0, space), keys.page_->bytes + kHmacOffset, kHmacKeySize) ||
        !hex::decode(text.substr(space + 1), keys.page_->bytes + kSeedOffset, ed25519::kSeedSize)) {
        return malformed;
    }
    return keys;
}

std::string RecordKeys::toText() const
{
    return std::string(kTextPrefix) + hex::encode(hmacKey(), kHmacKeySize) + " " +
           hex::encode(signingSeed(), ed25519::kSeedSize) + "\n";
}

Result<UniqueFd> RecordKeys::toSealedMemfd() const
{
    if (kLocationOffset + location_.size() > kPageSize) {
        return Error{"the record keys' location is too long: " + location_};
    }
    // Not close-on-exec: `moat run` execs moat-supervisor with it, which
    // reads and closes it before anything else starts.
    UniqueFd fd(::memfd_create("moat-record-keys", MFD_ALLOW_SEALING));
    if (!fd) {
        return Error::fromErrno("cannot hand the record keys to moat-supervisor (memfd_create)", errno);
    }
    iovec pieces[] = {{page_->bytes, kLocationOffset}, {const_cast<char*>(location_.data()), location_.size()}};
    const size_t size = kLocationOffset + location_.size();
    const bool written = ::writev(fd.get(), pieces, 2) == static_cast<ssize_t>(size);
    // Sealed: nobody who gets hold of the fd can change the keys on their way.
    if (!written || ::fcntl(fd.get(), F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0 ||
        ::lseek(fd.get(), 0, SEEK_SET) != 0) {
        return Error::fromErrno("cannot hand the record keys to moat-supervisor", errno);
    }
    return fd;
}

Result<RecordKeys> RecordKeys::readFrom(int fd)
{
    auto page = Page::allocate();
    if (!page) {
        return page.error();
    }
    RecordKeys keys(std::move(page.value()));
    unsigned char* bytes = keys.page_->bytes;
    size_t size = 0;
    for (;;) {
        const ssize_t n = ::read(fd, bytes + size, kPageSize - size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return Error::fromErrno("cannot read the record keys from moat", errno);
        }
        if (n == 0) {
            break;
        }
        size += static_cast<size_t>(n);
        if (size == kPageSize) {
            return Error{"the record keys from moat are larger than a page: not a hand-off from moat"};
        }
    }
    if (size < kLocationOffset || std::memcmp(bytes, kMagic, sizeof kMagic) != 0) {
        return Error{
            "the record keys from moat are not in the hand-off format (a moat and moat-supervisor of "
            "different versions?)",
            0, "Reinstall moat"};
    }
    keys.location_.assign(reinterpret_cast<const char*>(bytes + kLocationOffset), size - kLocationOffset);
    OPENSSL_cleanse(bytes + kLocationOffset, size - kLocationOffset);
    return keys;
}

}  // namespace moat
