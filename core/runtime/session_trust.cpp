// SPDX-License-Identifier: Apache-2.0
#include "runtime/session_trust.h"

#include "runtime/fs_util.h"
#include "runtime/mount_ops.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <set>
#include <utility>

namespace moat {

namespace {

constexpr size_t kMaxBundleBytes = 8 * 1024 * 1024;

// Opens a path of the staged root the way the sandbox will see it: symlinks
// are followed (Fedora's and Alpine's bundles are links) but never out of
// the root.
UniqueFd openInRoot(int stageFd, const std::string& relative, int flags)
{
    open_how how{};
    how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
    how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
    return UniqueFd(static_cast<int>(::syscall(SYS_openat2, stageFd, relative.c_str(), &how, sizeof how)));
}

bool readAll(int fd, std::string& out)
{
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got == 0) {
            return true;
        }
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        out.append(buffer, static_cast<size_t>(got));
        if (out.size() > kMaxBundleBytes) {
            return false;
        }
    }
}

std::string withCa(std::string bundle, const std::string& caPem)
{
    if (!bundle.empty() && bundle.back() != '\n') {
        bundle.push_back('\n');
    }
    return bundle + caPem;
}

}  // namespace

const std::vector<std::string>& SessionTrust::systemBundles()
{
    static const std::vector<std::string> paths = {
        "etc/ssl/certs/ca-certificates.crt",                 // Debian, Ubuntu, Alpine
        "etc/pki/tls/certs/ca-bundle.crt",                   // Fedora, RHEL (a link)
        "etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // Fedora, RHEL
        "etc/ssl/cert.pem",                                  // Alpine, OpenSSL's default (a link)
    };
    return paths;
}

Status SessionTrust::install(int stageFd, const std::string& caPem)
{
    auto moatDir = fs::makeDirsBeneath(stageFd, "etc/moat/trust");
    if (!moatDir) {
        return moatDir.error();
    }
    UniqueFd etcMoat(::openat(stageFd, "etc/moat", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    UniqueFd trustDir(::openat(stageFd, "etc/moat/trust", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!etcMoat || !trustDir) {
        return Error::fromErrno("cannot open the sandbox's /etc/moat", errno);
    }
    std::string firstBundle;
    std::set<std::pair<dev_t, ino_t>> done;
    int index = 0;
    for (const auto& path : systemBundles()) {
        UniqueFd target = openInRoot(stageFd, path, O_PATH);
        struct stat info {};
        if (!target || ::fstat(target.get(), &info) != 0 || !S_ISREG(info.st_mode) ||
            !done.insert({info.st_dev, info.st_ino}).second) {
            continue;  // absent in this image, not a file, or a link to one already done
        }
        UniqueFd readable = openInRoot(stageFd, path, O_RDONLY);
        std::string content;
        if (!readable || !readAll(readable.get(), content)) {
            return Error::fromErrno("cannot read the image's /" + path, errno);
        }
        if (firstBundle.empty()) {
            firstBundle = content;
        }
        const std::string copy = std::to_string(index++) + ".pem";
        if (auto written = fs::writeFileAt(trustDir.get(), copy, withCa(std::move(content), caPem), 0444); !written) {
            return written;
        }
        UniqueFd source(::openat(trustDir.get(), copy.c_str(), O_PATH | O_CLOEXEC | O_NOFOLLOW));
        if (!source) {
            return Error::fromErrno("cannot open /etc/moat/trust/" + copy, errno);
        }
        auto tree = mounts::cloneTree(source.get(), false, mounts::kReadOnly | mounts::kNoSuid | mounts::kNoDev);
        if (!tree) {
            return tree.error();
        }
        if (auto attached = mounts::attach(tree->get(), target.get(), "/" + path); !attached) {
            return attached;
        }
    }
    if (auto written = fs::writeFileAt(etcMoat.get(), "ca-bundle.pem", withCa(std::move(firstBundle), caPem), 0444);
        !written) {
        return written;
    }
    return fs::writeFileAt(etcMoat.get(), "session-ca.pem", caPem, 0444);
}

void SessionTrust::addEnvironment(std::vector<std::string>& env)
{
    const std::vector<std::pair<std::string, std::string>> vars = {{"SSL_CERT_FILE", kBundlePath},
                                                                   {"REQUESTS_CA_BUNDLE", kBundlePath},
                                                                   {"CURL_CA_BUNDLE", kBundlePath},
                                                                   {"GIT_SSL_CAINFO", kBundlePath},
                                                                   {"NODE_EXTRA_CA_CERTS", kCaPath}};
    for (const auto& [name, value] : vars) {
        std::erase_if(env, [&name](const std::string& entry) { return entry.starts_with(name + "="); });
        env.push_back(name + "=" + value);
    }
}

}  // namespace moat
