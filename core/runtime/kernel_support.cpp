// SPDX-License-Identifier: Apache-2.0
#include "runtime/kernel_support.h"

#include "runtime/landlock_policy.h"
#include "runtime/seccomp_policy.h"

namespace moat {

KernelSupport KernelSupport::probe()
{
    KernelSupport support;
    support.landlockAbi = LandlockPolicy::kernelAbi();
    support.seccomp = SeccompPolicy::kernelSupportsFilters();
    support.execNotify = SeccompPolicy::kernelSupportsExecNotify();
    return support;
}

Status KernelSupport::check(const SandboxSpec& spec) const
{
    if (landlockAbi < LandlockPolicy::kMinimumAbi && !spec.allowDegraded.contains(DegradableLayer::Landlock)) {
        return Error{"this kernel cannot enforce Landlock, so moat will not start the sandbox", 0,
                     "Boot a kernel of Linux 5.13 or later with Landlock enabled (CONFIG_SECURITY_LANDLOCK=y and "
                     "\"landlock\" in the lsm= boot parameter), or accept a weaker sandbox on purpose with "
                     "--allow-degraded=landlock (recorded in the session's events)"};
    }
    if (!seccomp && !spec.allowDegraded.contains(DegradableLayer::Seccomp)) {
        return Error{"this kernel cannot enforce seccomp filters, so moat will not start the sandbox", 0,
                     "Use a kernel built with CONFIG_SECCOMP_FILTER=y, or accept a weaker sandbox on purpose with "
                     "--allow-degraded=seccomp (recorded in the session's events)"};
    }
    return {};
}

}  // namespace moat
