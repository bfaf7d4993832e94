// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <cstdint>
#include <map>
#include <string>

namespace moat::probe {

// Checks that only mean something inside a sandbox: they compare what this
// process sees with what `moat probe` saw outside (SandboxContext), or try
// something the sandbox's layers must refuse. None of them is run on the
// host: landlock_enforced would create a device node there as root.

// sandbox_namespaces: every namespace differs from the host's. value 1 when
// at least user, mount and pid do (the boundary), whatever the others.
Check sandboxNamespaces(const std::map<std::string, uint64_t>& hostNamespaces);

// procfs_private: /proc belongs to this process's own pid namespace and
// lists no process of the host.
Check procfsPrivate(const std::map<std::string, uint64_t>& hostNamespaces);

// seccomp_filter_denies: system calls of moat's deny list, called with
// arguments that make them fail harmlessly without a filter (EBADF, EFAULT,
// EINVAL, ENOKEY), are answered with the filter's errno instead.
Check seccompFilterDenies();

// landlock_enforced: mknod of a character device in /tmp is refused by
// Landlock (EACCES, checked before the capability check) rather than by the
// missing CAP_MKNOD (EPERM). The agent never holds CAP_MKNOD of the host's
// user namespace, so nothing can be created either way.
Check landlockEnforced();

// mount_view: every mount is nosuid and read-only except the writable
// places of docs/sandbox.md (the workspace, /tmp, $HOME, /proc, and /dev
// with /dev/shm and /dev/pts).
Check mountView(const std::string& workspace);

// keychain_unreachable: the host's session bus (where the Secret Service
// keychain and moatd live) does not accept a connection from here.
Check keychainUnreachable(const std::string& hostBus);

}  // namespace moat::probe
