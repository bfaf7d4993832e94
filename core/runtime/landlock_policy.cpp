// SPDX-License-Identifier: Apache-2.0
#include "runtime/landlock_policy.h"

#include "base/unique_fd.h"
#include "runtime/syscalls.h"

#include <fcntl.h>

#include <cerrno>
#include <cstddef>

namespace moat {

namespace ll = sys::landlock;

namespace {

constexpr uint64_t kReadExecute = ll::kFsExecute | ll::kFsReadFile | ll::kFsReadDir;

Status addPathRule(int rulesetFd, const std::string& path, uint64_t access, uint64_t handled)
{
    UniqueFd fd(::open(path.c_str(), O_PATH | O_CLOEXEC));
    if (!fd) {
        if (errno == ENOENT) {
            return {};  // nothing there: nothing to allow
        }
        return Error::fromErrno("Landlock: cannot open " + path, errno);
    }
    ll::PathBeneathAttr attr;
    attr.allowedAccess = access & handled;
    attr.parentFd = fd.get();
    if (ll::addRule(rulesetFd, ll::kRulePathBeneath, &attr) != 0) {
        // Directory-only rights on a file are EINVAL: retry with file rights.
        if (errno == EINVAL) {
            attr.allowedAccess &= ll::kFsExecute | ll::kFsWriteFile | ll::kFsReadFile | ll::kFsTruncate |
                                  ll::kFsIoctlDev;
            if (ll::addRule(rulesetFd, ll::kRulePathBeneath, &attr) == 0) {
                return {};
            }
        }
        return Error::fromErrno("Landlock: cannot add a rule for " + path, errno);
    }
    return {};
}

}  // namespace

int LandlockPolicy::kernelAbi()
{
    const long abi = ll::createRuleset(nullptr, 0, ll::kCreateRulesetVersion);
    return abi < 0 ? -1 : static_cast<int>(abi);
}

uint64_t LandlockPolicy::fsRightsForAbi(int abi)
{
    if (abi < 1) {
        return 0;
    }
    uint64_t rights = (ll::kFsMakeSym << 1) - 1;  // ABI 1: bits 0..12
    if (abi >= 2) {
        rights |= ll::kFsRefer;
    }
    if (abi >= 3) {
        rights |= ll::kFsTruncate;
    }
    if (abi >= 5) {
        rights |= ll::kFsIoctlDev;
    }
    return rights;
}

Result<LandlockReport> LandlockPolicy::apply(const LandlockPlan& plan, int abi)
{
    LandlockReport report;
    report.abi = abi;
    ll::RulesetAttr attr;
    attr.handledAccessFs = fsRightsForAbi(abi);
    if (abi >= 4 && plan.restrictTcp) {
        attr.handledAccessNet = ll::kNetBindTcp | ll::kNetConnectTcp;
    }
    if (abi >= 6) {
        // Abstract unix sockets and signals stay inside the domain: a process
        // in the sandbox cannot reach an abstract socket (X11, D-Bus...) or
        // signal a process created outside it, even with --net open.
        attr.scoped = ll::kScopeAbstractUnixSocket | ll::kScopeSignal;
    }
    // Older kernels reject a struct larger than they know unless the extra
    // fields are zero; pass only the fields this ABI has.
    const size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? offsetof(ll::RulesetAttr, scoped)
                                                           : offsetof(ll::RulesetAttr, handledAccessNet);
    UniqueFd ruleset(static_cast<int>(ll::createRuleset(&attr, size, 0)));
    if (!ruleset) {
        return Error::fromErrno("Landlock: cannot create a ruleset", errno);
    }
    const uint64_t handled = attr.handledAccessFs;
    const uint64_t readWrite = handled & ~(ll::kFsMakeChar | ll::kFsMakeBlock);
    const uint64_t device = ll::kFsReadFile | ll::kFsWriteFile | ll::kFsReadDir | ll::kFsIoctlDev | ll::kFsTruncate;
    const uint64_t proc = kReadExecute | ll::kFsWriteFile;

    for (const auto& [paths, access] : {std::pair{&plan.readOnly, kReadExecute}, {&plan.readWrite, readWrite},
                                        {&plan.devices, device}, {&plan.procfs, proc}}) {
        for (const auto& path : *paths) {
            if (auto added = addPathRule(ruleset.get(), path, access, handled); !added) {
                return added.error();
            }
        }
    }
    if (attr.handledAccessNet != 0) {
        for (uint16_t port : plan.tcpConnectPorts) {
            ll::NetPortAttr portAttr{ll::kNetConnectTcp, port};
            if (ll::addRule(ruleset.get(), ll::kRuleNetPort, &portAttr) != 0) {
                return Error::fromErrno("Landlock: cannot allow TCP port " + std::to_string(port), errno);
            }
        }
    }
    if (ll::restrictSelf(ruleset.get()) != 0) {
        return Error::fromErrno("Landlock: cannot restrict the sandbox", errno);
    }
    report.handledFs = attr.handledAccessFs;
    report.handledNet = attr.handledAccessNet;
    report.scoped = attr.scoped;
    return report;
}

}  // namespace moat
