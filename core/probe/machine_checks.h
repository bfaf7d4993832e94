// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <string>

namespace moat::probe {

// Criteria 1 and 7 of docs/probe.md: what kind of machine this is, and
// whether moat's records and checkpoints are within this user's reach.

// hypervisor: /proc/cpuinfo carries the "hypervisor" flag (a VM).
Check hypervisor();
// container_markers: none of /.dockerenv, /run/.containerenv,
// /run/systemd/container exists.
Check containerMarkers();

// records_reachable (moat's state dir: session records) and
// checkpoints_reachable (its data dir). ok when this user can neither read
// nor write it; value 2 when writable (or creatable: the nearest existing
// parent is writable), 1 when only readable.
Check directoryReach(const std::string& name, const std::string& path);

}  // namespace moat::probe
