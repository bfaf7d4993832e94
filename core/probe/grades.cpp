// SPDX-License-Identifier: Apache-2.0
#include "probe/grades.h"

#include <algorithm>
#include <deque>
#include <initializer_list>

namespace moat::probe {

namespace {

// The checks one criterion reads, with its evidence collected as it goes.
class Reader {
public:
    Reader(const Checks& checks, Criterion& criterion) : checks_(checks), criterion_(criterion) {}

    const Check& get(const std::string& name)
    {
        const auto found = std::find_if(checks_.begin(), checks_.end(),
                                        [&name](const Check& check) { return check.name == name; });
        if (found == checks_.end()) {
            missing_.push_back({name, false, "not checked", 0});
            criterion_.evidence.push_back(name + ": not checked");
            return missing_.back();
        }
        criterion_.evidence.push_back(name + (found->ok ? " ok: " : " NOT ok: ") + found->detail);
        return *found;
    }

    bool ok(const std::string& name) { return get(name).ok; }

    bool allOk(std::initializer_list<const char*> names)
    {
        bool all = true;
        for (const char* name : names) {
            all = ok(name) && all;  // read every one, for the evidence
        }
        return all;
    }

private:
    const Checks& checks_;
    Criterion& criterion_;
    std::deque<Check> missing_;  // stable references for get()
};

char isolationBoundary(Reader& read, Target target, Criterion& criterion)
{
    const bool vm = read.ok("hypervisor");
    if (target == Target::Sandbox) {
        const Check& namespaces = read.get("sandbox_namespaces");
        read.get("procfs_private");
        criterion.evidence.push_back(
            "boundary: a namespace sandbox on the host's shared kernel, not a VM: a kernel bug reachable from "
            "inside reaches the host");
        if (namespaces.value != 1) {
            return 'D';  // not even its own user, mount and pid namespaces
        }
        return vm ? 'B' : 'C';
    }
    if (!read.ok("container_markers")) {
        // A container: a shared kernel is the boundary.
        return vm ? 'B' : 'C';
    }
    // A process on this machine: the machine is the only boundary. The probe
    // cannot tell a VM of the agent's own from a VM shared with others.
    return vm ? 'B' : 'D';
}

char kernelSupport(Reader& read, Target target, Criterion& criterion)
{
    read.get("lsm_list");  // evidence only: landlock_abi already fails when Landlock is off
    const Check& landlock = read.get("landlock_abi");
    const bool seccomp = read.ok("seccomp_available");
    const bool nestedUserns = read.ok("userns_procfs");
    const bool ownLayers = read.ok("inner_sandbox_layers");
    bool userns = nestedUserns;
    bool enforced = true;
    if (target == Target::Sandbox) {
        // The inner sandbox the criterion asks for is the one the probe runs
        // in: its user namespaces and fresh /proc, its Landlock domain and its
        // seccomp filter, each observed from inside. New namespaces of the
        // agent's own are what moat's filter refuses (userns_procfs, evidence).
        const bool ownNamespaces = read.get("sandbox_namespaces").value == 1;
        userns = read.ok("procfs_private") && ownNamespaces;
        enforced = read.allOk({"landlock_enforced", "seccomp_mode", "seccomp_filter_denies"});
        if (!nestedUserns) {
            criterion.evidence.push_back(
                "inside: the agent cannot create namespaces of its own (moat's filter refuses them; --sudo allows "
                "them), so bubblewrap-style inner sandboxes do not run; Landlock and seccomp layers of its own do");
        }
    }
    if (landlock.value >= 6 && seccomp && userns && enforced && ownLayers) {
        return 'A';
    }
    if (landlock.value >= 1 && seccomp && userns && enforced) {
        return 'B';
    }
    if (seccomp && (landlock.value >= 1 || userns)) {
        return 'C';
    }
    return 'D';
}

char agentPrivilege(Reader& read)
{
    // Every check is read first, so the evidence lists them all.
    const bool oneStepFromRoot =
        !read.allOk({"cap_eff_zero", "sudo_nopasswd", "root_equivalent_groups", "container_sockets"});
    const bool latentPrivilege = !read.allOk({"cap_prm_zero", "cap_amb_zero", "admin_groups"});
    const bool couldGain = !read.allOk({"no_new_privs", "cap_bnd_zero", "sudo_reachable"});
    return oneStepFromRoot ? 'D' : latentPrivilege ? 'C' : couldGain ? 'B' : 'A';
}

// A proxy check that was asked and did not see a refusal (value -1: no
// moat proxy here to ask, which the route checks answer for).
bool proxyLetThrough(Reader& read, const char* name)
{
    const Check& check = read.get(name);
    return !check.ok && check.value != kNotAsked;
}

char controlPlane(Reader& read, Target target)
{
    const bool tokens = !read.ok("platform_tokens");
    const bool sockets = !read.ok("container_sockets");
    bool metadata = !read.ok("metadata_route");
    if (target == Target::Sandbox) {
        metadata = proxyLetThrough(read, "proxy_refuses_metadata") || metadata;
    }
    read.get("world_writable_sockets");  // evidence only: the system bus socket is one on every machine
    return tokens ? 'D' : sockets ? 'C' : metadata ? 'B' : 'A';
}

char egress(Reader& read, Target target)
{
    const bool publicRoute = !read.ok("public_route");
    const bool dns = !read.ok("dns_direct");
    const bool defaultRoute = !read.ok("default_route");
    if (target == Target::Sandbox) {
        // Evidence: what moat's edge answers; --allow-host may rightly let a
        // destination through, so these do not change the grade.
        read.get("proxy_refuses_unlisted");
        read.get("proxy_refuses_raw_ip");
        read.get("dns_stub_refuses");
    }
    return publicRoute ? 'D' : dns ? 'C' : defaultRoute ? 'B' : 'A';
}

char secrets(Reader& read, Target target)
{
    const bool envNames = !read.ok("credential_env_names");
    const Check& files = read.get("credential_files");
    bool readable = !files.ok;
    if (target == Target::Sandbox) {
        // The real home and the keychain hold what the sandbox's HOME does not.
        readable = !read.allOk({"real_home_reachable", "keychain_unreachable"}) || readable;
    }
    return envNames ? 'D' : readable ? 'C' : files.value > 0 ? 'B' : 'A';
}

char records(Reader& read)
{
    // value: 2 writable by this user, 1 readable only, 0 out of reach.
    const Check& records = read.get("records_reachable");
    const bool checkpoints = read.ok("checkpoints_reachable");
    if (!records.ok) {
        return records.value >= 2 ? 'D' : 'C';
    }
    return checkpoints ? 'A' : 'B';
}

}  // namespace

std::vector<Criterion> gradeCriteria(const Checks& checks, Target target)
{
    std::vector<Criterion> criteria = {{1, "isolation boundary", 'D', {}},
                                       {2, "kernel support for an inner sandbox", 'D', {}},
                                       {3, "agent privilege", 'D', {}},
                                       {4, "control plane inside the machine", 'D', {}},
                                       {5, "egress", 'D', {}},
                                       {6, "secrets", 'D', {}},
                                       {7, "recovery and records", 'D', {}}};
    auto grade = [&](size_t index, auto rule) {
        Reader read(checks, criteria[index]);
        criteria[index].grade = rule(read);
    };
    grade(0, [&](Reader& read) { return isolationBoundary(read, target, criteria[0]); });
    grade(1, [&](Reader& read) { return kernelSupport(read, target, criteria[1]); });
    grade(2, agentPrivilege);
    grade(3, [target](Reader& read) { return controlPlane(read, target); });
    grade(4, [target](Reader& read) { return egress(read, target); });
    grade(5, [target](Reader& read) { return secrets(read, target); });
    grade(6, records);
    return criteria;
}

}  // namespace moat::probe
