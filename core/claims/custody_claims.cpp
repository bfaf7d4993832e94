// SPDX-License-Identifier: Apache-2.0
// Claims about what stays outside a default sandbox and who keeps it: real
// secrets, the caller's environment and credential files, the records, and
// the host's own privileges (sudo, groups, container sockets).
#include "claims/claim_sections_p.h"
#include "policy/spec_builder.h"

namespace moat::claims::detail {

namespace {

void addSecretClaims(const ClaimsContext& context, std::vector<Claim>& out)
{
    const char* area = "secrets";
    out.push_back({"secrets.keychain", area,
                   "Real secrets (moat secret set) and the records' key live in the OS keychain, through the Secret "
                   "Service on the user's session bus, which nothing in the sandbox can reach",
                   "keychain_unreachable",
                   {"no /run and no bus socket is mounted; abstract sockets belong to the host's network namespace",
                    "without a reachable keychain, the records' keys are kept in <config dir>/record-keys (0600), "
                    "outside every sandbox like the keychain (docs/records.md); moat secret set then fails",
                    "config directory on the host: " + context.paths.configDir}});

    // Asked of the spec builder itself: these names show what the safe list
    // lets through and what it keeps out.
    std::vector<std::string> passed;
    std::vector<std::string> kept;
    for (const char* name : {"PATH", "TERM", "LANG", "LC_ALL", "TZ", "COLORTERM", "AWS_ACCESS_KEY_ID",
                             "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "GH_TOKEN", "OPENAI_API_KEY",
                             "ANTHROPIC_API_KEY", "NPM_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS", "KUBECONFIG",
                             "SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS", "DOCKER_HOST", "HOME", "XDG_RUNTIME_DIR"}) {
        (SpecBuilder::isSafeVariable(name) ? passed : kept).emplace_back(name);
    }
    out.push_back({"secrets.environment", area,
                   "The command's environment is cleared to a safe list: no credential variable of the caller "
                   "enters unless passed on purpose with --env",
                   "credential_env_names",
                   {"passed from the caller: " + joinedList(passed),
                    "never passed without --env, for example: " + joinedList(kept),
                    "set by moat: HOME, USER, LOGNAME, SHELL, MOAT_SESSION, and the proxy variables and MOAT_API"}});
    out.push_back({"secrets.files", area,
                   "No credential file of the user's is inside: the real home (~/.ssh, ~/.aws, ~/.netrc, "
                   "~/.config/gh, ~/.docker, ...) is not mounted, and $HOME is moat's own directory",
                   "credential_files",
                   {"$HOME on the host: " + context.paths.homeDir("default")}});
}

void addRecordClaims(const ClaimsContext& context, std::vector<Claim>& out)
{
    out.push_back({"records.sessions", "records",
                   "Each session's record (spec, hash-chained events, exit status) is written by the supervisor "
                   "outside the sandbox, in a directory the sandbox cannot see or write",
                   "records_reachable",
                   {"on the host: " + context.paths.stateDir + "/sessions",
                    "every line chained and MACed under a key kept in the keychain: moat audit verify"}});
    out.push_back({"records.checkpoints", "records",
                   "moat's data directory, where images and workspace checkpoints are kept, is outside the sandbox "
                   "and cannot be reached from inside",
                   "checkpoints_reachable",
                   {"on the host: " + context.paths.dataDir}});
}

void addHostClaims(std::vector<Claim>& out)
{
    const char* area = "host";
    out.push_back({"host.sudo", area,
                   "sudo cannot make the agent root: no_new_privs leaves setuid sudo powerless and the sandbox's "
                   "/etc has no sudoers",
                   "sudo_nopasswd",
                   {"--sudo gives root of the sandbox's own user namespace only, and is recorded"}});
    out.push_back({"host.groups", area,
                   "The agent is in no group that is root-equivalent on the host (docker, sudo, wheel, adm, lxd, "
                   "libvirt, disk, ...): the sandbox's /etc/group names the agent's own group only",
                   "root_equivalent_groups",
                   {"an ordinary user's supplementary groups stay attached to the agent's processes (only root may "
                    "drop them) and show as nogroup; they reach only host paths mounted in (docs/threat-model.md)"}});
    out.push_back({"host.container_sockets", area,
                   "No container engine or platform socket (docker, podman, containerd, libvirt, ...) is reachable: "
                   "/run, /var/run and the host's sockets are not mounted",
                   "container_sockets",
                   {"--docker is the flag for a container engine inside the sandbox"}});
}

}  // namespace

void addCustodyClaims(const ClaimsContext& context, std::vector<Claim>& out)
{
    addSecretClaims(context, out);
    addRecordClaims(context, out);
    addHostClaims(out);
}

}  // namespace moat::claims::detail
