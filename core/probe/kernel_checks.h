// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

namespace moat::probe {

// Criterion 2 of docs/probe.md: what the kernel offers an inner sandbox.
// lsm_list: /sys/kernel/security/lsm names landlock.
Check lsmList();
// landlock_abi: the ABI landlock_create_ruleset(NULL, 0, VERSION) reports
// (value; ok when >= 6).
Check landlockAbi();
// seccomp_available: prctl(PR_GET_SECCOMP) answers and the kernel offers
// filters (SECCOMP_GET_ACTION_AVAIL), both read-only questions.
Check seccompAvailable();
// userns_procfs: a forked child unshares user, mount and pid namespaces and
// mounts a fresh /proc in its own mount namespace, then exits. Nothing of it
// outlives the child; the host's mounts are untouched.
Check userNamespaceProcfs();

}  // namespace moat::probe
