// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <optional>
#include <string>

namespace moat::probe {

// The fields of /proc/<pid>/status the probe grades. A field absent from the
// text stays empty, which no check reads as "all clear".
struct ProcessStatus {
    std::optional<std::string> capEff, capPrm, capBnd, capAmb;  // hex masks as printed
    std::optional<int> noNewPrivs;
    std::optional<int> seccomp;  // 0 disabled, 1 strict, 2 filter

    static ProcessStatus parse(const std::string& text);
};

// True when a hex capability mask is present and every bit is clear.
bool isZeroMask(const std::optional<std::string>& mask);

// cap_eff_zero, cap_prm_zero, cap_bnd_zero, cap_amb_zero, no_new_privs,
// seccomp_mode: from a parsed status.
Checks processStatusChecks(const ProcessStatus& status);

// The same for this process, reading /proc/self/status.
Checks currentProcessChecks();

}  // namespace moat::probe
