// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <string>
#include <vector>

namespace moat::probe {

// Criterion 3 of docs/probe.md: one command from root?

// sudo_reachable: a setuid-root sudo or doas this user may execute.
Check sudoReachable();

// sudo_nopasswd: a NOPASSWD rule in /etc/sudoers or /etc/sudoers.d that
// names this user, one of its groups, or ALL. The probe never runs sudo
// (`sudo -n true` is logged and may mail the admin): it reads the rules only
// when they are readable, which they usually are not to an ordinary user;
// the detail then says that passwordless sudo could not be ruled out.
Check sudoNopasswd(const std::string& user, const std::vector<std::string>& groups);

// root_equivalent_groups: docker, lxd, incus, libvirt, disk, kvm, root...
// (membership is root by another name); admin_groups: sudo, wheel, admin,
// adm (root with a password, or the system's logs).
Check rootEquivalentGroups(const std::vector<std::string>& groups);
Check adminGroups(const std::vector<std::string>& groups);

// container_sockets: docker, containerd, podman, libvirt, lxd, incus, crio
// sockets this user can connect() to. connect() on a Unix socket stays on the
// machine; nothing is written to it, and the socket is closed at once.
Check containerSockets();

// world_writable_sockets: Unix sockets under /run, /tmp and /dev/shm (three
// levels deep, symlinks not followed) that any user may connect to and that
// belong to someone else. Evidence for criterion 4, not graded: the system
// bus socket is world-writable by design on every machine.
Check worldWritableSockets();

// The current user's name and the names of its groups (getgroups).
std::string currentUserName();
std::vector<std::string> currentGroupNames();

}  // namespace moat::probe
