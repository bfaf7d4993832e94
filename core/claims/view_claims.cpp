// SPDX-License-Identifier: Apache-2.0
// Claims about what a default sandbox sees and reaches: its mounts and its
// network. The mount table is written here from docs/sandbox.md ("File
// system"): the runtime plans mounts per session (planSandboxInit creates the
// agent's home and, as root, idmapped trees), which `moat claims` must not do.
// What the runtime can answer without side effects is asked of it: the /etc
// entries it writes and refuses, the proxy's ports and variables, and the
// egress policy's answers.
#include "claims/claim_sections_p.h"
#include "egress/egress_policy.h"
#include "policy/egress_endpoints.h"
#include "policy/proxy_environment.h"
#include "runtime/etc_files.h"

namespace moat::claims::detail {

namespace {

void addMountClaims(const ClaimsContext& context, std::vector<Claim>& out)
{
    const char* area = "filesystem";
    const char* check = "mount_view";
    out.push_back({"filesystem.root", area,
                   "The sandbox's root is a fresh tmpfs entered with pivot_root; the host's tree is detached and / "
                   "is read-only",
                   check,
                   {}});
    out.push_back({"filesystem.system", area,
                   "/usr, /bin, /sbin and /lib* are the host's, read-only, nosuid and nodev", check, {}});

    std::vector<std::string> written;
    for (const char* name :
         {"passwd", "group", "hosts", "hostname", "resolv.conf", "nsswitch.conf", "mtab", "shadow", "gshadow"}) {
        if (EtcFiles::synthesized(name)) {
            written.emplace_back(name);
        }
    }
    std::vector<std::string> never;
    for (const char* name : {"shadow", "gshadow", "sudoers", "sudoers.d", "ssh", "machine-id", "subuid", "subgid",
                             "passwd-", "shadow-", "krb5.keytab", "docker", "containers", "NetworkManager",
                             "wpa_supplicant", "security"}) {
        if (!EtcFiles::hostEntryAllowed(name)) {
            never.emplace_back(name);
        }
    }
    out.push_back({"filesystem.etc", area,
                   "/etc holds files moat writes, naming the agent user only, and a short allowlist of the host's "
                   "/etc, read-only; the host's copy of a file moat writes is never shown",
                   check,
                   {"written by moat: " + joinedList(written), "never from the host: " + joinedList(never)}});
    out.push_back({"filesystem.workspace", area,
                   "The workspace (the current directory unless --workspace) is the only host directory mounted "
                   "read-write, at its own path, and is the working directory",
                   check,
                   {"other host paths only with --ro or --rw, each recorded"}});
    out.push_back({"filesystem.home", area,
                   "$HOME is moat's per-profile directory, never the real home", "real_home_reachable",
                   {"on the host: " + context.paths.homeDir("default"),
                    "it persists between sessions of the profile (docs/threat-model.md)"}});
    out.push_back({"filesystem.tmp", area,
                   "/tmp and /dev/shm are fresh tmpfs private to the sandbox; /var/tmp points at /tmp", check, {}});
    out.push_back({"filesystem.dev", area,
                   "/dev is minimal: null, zero, full, random, urandom, tty, a private devpts (/dev/pts, /dev/ptmx), "
                   "shm and the fd, stdin, stdout and stderr links",
                   check,
                   {}});
    out.push_back({"filesystem.sys", area, "/sys holds only devices/system/cpu, read-only", check, {}});
    out.push_back({"filesystem.absent", area,
                   "/run, the host's sockets, the real home and moat's own directories are absent; a workspace, --ro "
                   "or --rw path that contains or lies inside moat's directories is refused",
                   check,
                   {"config: " + context.paths.configDir, "state: " + context.paths.stateDir,
                    "data: " + context.paths.dataDir}});
}

// What the proxy of a default sandbox answers, from EgressPolicy itself: a
// default-constructed policy is what `moat run` without --allow-host gets.
std::string refusal(const EgressPolicy& policy, const std::string& host, uint16_t port)
{
    const EgressDecision decision = policy.decideName(host, port);
    return host + ":" + std::to_string(port) + ": " + (decision.allowed ? "ALLOWED" : "refused (" + decision.reason + ")");
}

std::string refusalAfterResolution(const EgressPolicy& policy, const std::string& host, const std::string& address)
{
    auto resolved = IpAddress::parse(address);
    if (!resolved) {
        return host + " resolving to " + address + ": not an address";
    }
    const EgressDecision decision = policy.decideResolved(host, 443, resolved.value());
    return host + ":443 resolving to " + address + ", with --allow-host " + host + ": " +
           (decision.allowed ? "ALLOWED" : "refused (" + decision.reason + ")");
}

void addNetworkClaims(std::vector<Claim>& out)
{
    const char* area = "network";
    const std::string loopback = kEgressLoopbackAddress;
    const std::string http = loopback + ":" + std::to_string(kProxyHttpPort);
    const std::string socks = loopback + ":" + std::to_string(kProxySocksPort);
    const std::string dns = loopback + ":" + std::to_string(kDnsPort);

    out.push_back({"network.interfaces", area,
                   "The sandbox's network namespace has only lo: no default route and no interface that leads out",
                   "default_route",
                   {}});
    out.push_back({"network.public", area,
                   "No public address is routable from inside: the only way out is moat's proxy, which the "
                   "supervisor serves from outside the sandbox",
                   "public_route",
                   {}});
    out.push_back({"network.metadata_route", area,
                   "Cloud metadata addresses (169.254.169.254, fd00:ec2::254) have no route from inside",
                   "metadata_route",
                   {}});
    out.push_back({"network.dns_direct", area,
                   "/etc/resolv.conf names " + loopback + " only, and no DNS server outside can be reached directly",
                   "dns_direct",
                   {}});
    out.push_back({"network.dns_stub", area,
                   "The DNS stub on " + dns +
                       " (UDP and TCP) answers every query NXDOMAIN and records it as a dns.query event; names are "
                       "resolved only by the proxy, outside",
                   "dns_stub_refuses",
                   {}});

    Claim unlisted{"network.proxy_unlisted", area,
                   "The egress proxy (HTTP on " + http + ", SOCKS5 on " + socks +
                       ") allows no host: a default sandbox reaches nothing until a host is named with --allow-host; "
                       "every decision is recorded (net.allow, net.deny)",
                   "proxy_refuses_unlisted",
                   {}};
    const EgressPolicy none;  // what --allow-host never given means
    unlisted.details.push_back(refusal(none, "example.com", 443));
    for (const auto& [name, value] : proxyEnvironment()) {
        unlisted.details.push_back("environment: " + name + "=" + value);
    }
    out.push_back(std::move(unlisted));

    out.push_back({"network.proxy_raw_ip", area,
                   "The proxy refuses IP literals in every spelling, even when a wildcard --allow-host would match: "
                   "only an --allow-host naming that very address opens one",
                   "proxy_refuses_raw_ip",
                   {refusal(none, "93.184.215.14", 443), refusal(none, "2130706433", 80),
                    refusal(none, "0x7f000001", 80)}});

    Claim metadata{"network.proxy_metadata", area,
                   "The proxy refuses loopback, private, link-local, CGNAT, reserved and cloud-metadata addresses and "
                   "the metadata services' names, even when an allowed name resolves to one",
                   "proxy_refuses_metadata",
                   {refusal(none, "169.254.169.254", 80), refusal(none, "metadata.google.internal", 80)}};
    if (auto allowed = EgressPolicy::fromArguments(std::vector<std::string>{"example.com"})) {
        metadata.details.push_back(refusalAfterResolution(allowed.value(), "example.com", "169.254.169.254"));
        metadata.details.push_back(refusalAfterResolution(allowed.value(), "example.com", "10.0.0.1"));
    }
    out.push_back(std::move(metadata));
}

}  // namespace

void addViewClaims(const ClaimsContext& context, std::vector<Claim>& out)
{
    addMountClaims(context, out);
    addNetworkClaims(out);
}

}  // namespace moat::claims::detail
