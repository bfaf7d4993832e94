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

char isolationBoundary(Reader& read, Target target)
{
    const bool vm = read.ok("hypervisor");
    const bool container = !read.ok("container_markers");
    if (target == Target::Sandbox || container) {
        // A namespace sandbox or a container: a shared kernel is the boundary.
        return vm ? 'B' : 'C';
    }
    // A process on this machine: the machine is the only boundary. The probe
    // cannot tell a VM of the agent's own from a VM shared with others.
    return vm ? 'B' : 'D';
}

char kernelSupport(Reader& read)
{
    read.get("lsm_list");  // evidence only: landlock_abi already fails when Landlock is off
    const Check& landlock = read.get("landlock_abi");
    const bool seccomp = read.ok("seccomp_available");
    const bool userns = read.ok("userns_procfs");
    if (landlock.value >= 6 && seccomp && userns) {
        return 'A';
    }
    if (landlock.value >= 1 && seccomp && userns) {
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

char controlPlane(Reader& read)
{
    const bool tokens = !read.ok("platform_tokens");
    const bool sockets = !read.ok("container_sockets");
    const bool metadata = !read.ok("metadata_route");
    read.get("world_writable_sockets");  // evidence only: the system bus socket is one on every machine
    return tokens ? 'D' : sockets ? 'C' : metadata ? 'B' : 'A';
}

char egress(Reader& read)
{
    const bool publicRoute = !read.ok("public_route");
    const bool dns = !read.ok("dns_direct");
    const bool defaultRoute = !read.ok("default_route");
    return publicRoute ? 'D' : dns ? 'C' : defaultRoute ? 'B' : 'A';
}

char secrets(Reader& read)
{
    const bool envNames = !read.ok("credential_env_names");
    const Check& files = read.get("credential_files");
    return envNames ? 'D' : !files.ok ? 'C' : files.value > 0 ? 'B' : 'A';
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
    grade(0, [target](Reader& read) { return isolationBoundary(read, target); });
    grade(1, kernelSupport);
    grade(2, agentPrivilege);
    grade(3, controlPlane);
    grade(4, egress);
    grade(5, secrets);
    grade(6, records);
    return criteria;
}

}  // namespace moat::probe
