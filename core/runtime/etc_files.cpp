// SPDX-License-Identifier: Apache-2.0
#include "runtime/etc_files.h"

#include <array>

namespace moat {

std::string EtcFiles::passwd(const AgentIdentity& id, const std::string& shell)
{
    std::string text = "root:x:0:0:root:/root:" + shell + "\n";
    if (id.insideUid != 0) {
        text += id.name + ":x:" + std::to_string(id.insideUid) + ":" + std::to_string(id.insideGid) +
                ":moat agent:" + id.home + ":" + shell + "\n";
    }
    text += "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
    return text;
}

std::string EtcFiles::group(const AgentIdentity& id)
{
    std::string text = "root:x:0:\n";
    if (id.insideGid != 0) {
        text += id.name + ":x:" + std::to_string(id.insideGid) + ":\n";
    }
    text += "nogroup:x:65534:\n";
    return text;
}

std::string EtcFiles::hosts(const std::string& hostname)
{
    return "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t" + hostname + "\n";
}

std::string EtcFiles::resolvConf()
{
    // The sandbox's own loopback: with --net none nothing answers there, so a
    // lookup fails at once instead of waiting for a timeout.
    return "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n";
}

std::string EtcFiles::nsswitch()
{
    return "passwd: files\ngroup: files\nshadow: files\nhosts: files dns\nnetworks: files\n"
           "protocols: files\nservices: files\nethers: files\nrpc: files\n";
}

bool EtcFiles::synthesized(std::string_view name)
{
    static constexpr std::array kOwn = {"passwd", "group", "hosts", "hostname", "resolv.conf", "nsswitch.conf",
                                        "mtab", "shadow", "gshadow"};
    for (std::string_view own : kOwn) {
        if (name == own) {
            return true;
        }
    }
    return false;
}

bool EtcFiles::hostEntryAllowed(std::string_view name)
{
    static constexpr std::array kAllowed = {
        "alternatives", "bash.bashrc", "bash_completion", "bash_completion.d", "ca-certificates",
        "ca-certificates.conf", "crypto-policies", "debian_version", "dpkg", "environment.d", "fonts", "gai.conf",
        "gitconfig", "host.conf", "inputrc", "issue", "java-17-openjdk", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",
        "locale.alias", "locale.conf", "locale.gen", "localtime", "lsb-release", "magic", "magic.mime", "mailcap",
        "manpath.config", "mime.types", "networks", "npmrc", "os-release", "perl", "pki", "profile", "profile.d",
        "protocols", "python3", "python3.11", "rpc", "services", "shells", "ssl", "terminfo", "timezone",
        "vim", "wgetrc", "xdg", "zsh", "zshenv", "zshrc"};
    for (std::string_view allowed : kAllowed) {
        if (name == allowed) {
            return true;
        }
    }
    return false;
}

}  // namespace moat
