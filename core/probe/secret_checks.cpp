// SPDX-License-Identifier: Apache-2.0
#include "probe/secret_checks.h"

#include "probe/joined.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <dirent.h>
#include <unistd.h>

extern char** environ;

namespace moat::probe {

namespace {

std::string upper(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
    return text;
}

bool endsWith(const std::string& text, const std::string& end)
{
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

bool startsWith(const std::string& text, const std::string& start)
{
    return text.rfind(start, 0) == 0;
}

struct FileScan {
    std::vector<std::string> readable;
    std::vector<std::string> unreadable;
};

// Existence and readability of each path; access() opens nothing.
void scanPaths(const std::vector<std::string>& paths, FileScan& scan)
{
    for (const auto& path : paths) {
        if (::access(path.c_str(), F_OK) != 0) {
            continue;
        }
        (::access(path.c_str(), R_OK) == 0 ? scan.readable : scan.unreadable).push_back(path);
    }
}

// ~/.ssh/id_* private keys (not the .pub halves).
std::vector<std::string> sshKeys(const std::string& home)
{
    std::vector<std::string> keys;
    const std::string dir = home + "/.ssh";
    if (DIR* handle = ::opendir(dir.c_str())) {
        while (const dirent* entry = ::readdir(handle)) {
            const std::string name = entry->d_name;
            if (startsWith(name, "id_") && !endsWith(name, ".pub")) {
                keys.push_back(dir + "/" + name);
            }
        }
        ::closedir(handle);
    }
    std::sort(keys.begin(), keys.end());
    return keys;
}

Check fileCheck(const char* name, const FileScan& scan, const char* noneText)
{
    const auto existing = static_cast<long>(scan.readable.size() + scan.unreadable.size());
    if (!scan.readable.empty()) {
        return {name, false, "readable: " + joined(scan.readable), existing};
    }
    return {name, true, scan.unreadable.empty() ? noneText : "present but not readable: " + joined(scan.unreadable),
            existing};
}

}  // namespace

bool looksLikeCredentialName(const std::string& name)
{
    const std::string word = upper(name);
    for (const char* part : {"SECRET", "PASSWORD", "PASSWD", "TOKEN", "CREDENTIAL", "API_KEY", "APIKEY",
                             "PRIVATE_KEY", "ACCESS_KEY", "SSH_AUTH_SOCK", "COOKIE"}) {
        if (word.find(part) != std::string::npos) {
            return true;
        }
    }
    // AWS_REGION or GITHUB_WORKSPACE name no secret: a prefix alone is not enough.
    return endsWith(word, "_KEY") || endsWith(word, "_PAT") || endsWith(word, "_PASS");
}

std::vector<std::string> credentialNames(const char* const* environment)
{
    std::vector<std::string> names;
    for (const char* const* entry = environment; entry && *entry; ++entry) {
        // Only the bytes before '=' are copied: the value is never read into
        // a string, so it cannot reach the report.
        const char* equals = std::strchr(*entry, '=');
        std::string name(*entry, equals ? static_cast<size_t>(equals - *entry) : std::strlen(*entry));
        if (looksLikeCredentialName(name)) {
            names.push_back(std::move(name));
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

Check credentialEnvNames()
{
    const auto names = credentialNames(environ);
    return {"credential_env_names", names.empty(),
            names.empty() ? "no environment variable name looks like a credential"
                          : "names (values not read): " + joined(names),
            static_cast<long>(names.size())};
}

Check credentialFiles(const std::string& home)
{
    FileScan scan;
    scanPaths({home + "/.aws/credentials", home + "/.netrc", home + "/.git-credentials",
               home + "/.config/gh/hosts.yml", home + "/.docker/config.json", home + "/.npmrc", home + "/.pypirc",
               home + "/.config/git/credentials"},
              scan);
    scanPaths(sshKeys(home), scan);
    return fileCheck("credential_files", scan, "none of the known credential files exists");
}

Check platformTokens(const std::string& home)
{
    FileScan scan;
    scanPaths({"/var/run/secrets/kubernetes.io/serviceaccount/token", "/run/secrets/kubernetes.io/serviceaccount/token",
               home + "/.kube/config", home + "/.config/gcloud/credentials.db",
               home + "/.config/gcloud/application_default_credentials.json", home + "/.azure/msal_token_cache.json",
               home + "/.azure/accessTokens.json", home + "/.aws/credentials", home + "/.aws/sso/cache",
               home + "/.config/doctl/config.yaml", home + "/.config/flyctl/config.yml"},
              scan);
    return fileCheck("platform_tokens", scan, "no platform or cloud CLI token file exists");
}

}  // namespace moat::probe
