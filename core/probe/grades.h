// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "probe/check.h"

#include <string>
#include <vector>

namespace moat::probe {

enum class Target { Host, Sandbox };

// One of the seven criteria of the seed, graded 'A'..'D' by the rules of
// docs/probe.md; evidence is the details of the checks the rule read.
struct Criterion {
    int id = 0;
    std::string name;
    char grade = 'D';
    std::vector<std::string> evidence;
};

// Grades the seven criteria (ids 1..7, in order) from the checks. A check the
// rule needs but that is missing from checks counts as not ok: a probe that
// could not look never earns a better grade.
std::vector<Criterion> gradeCriteria(const Checks& checks, Target target);

}  // namespace moat::probe
