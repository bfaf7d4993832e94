// SPDX-License-Identifier: Apache-2.0
#include "probe/process_status.h"

#include <fstream>
#include <sstream>

namespace moat::probe {

namespace {

std::string trimmed(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t\r");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

std::optional<int> asInt(const std::string& text)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9) {
        return std::nullopt;
    }
    return std::stoi(text);
}

Check maskCheck(const char* name, const char* field, const std::optional<std::string>& mask)
{
    return {name, isZeroMask(mask), std::string(field) + ": " + mask.value_or("(absent)")};
}

}  // namespace

ProcessStatus ProcessStatus::parse(const std::string& text)
{
    ProcessStatus status;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) {
            continue;
        }
        const std::string key = line.substr(0, colon);
        const std::string value = trimmed(line.substr(colon + 1));
        if (key == "CapEff") {
            status.capEff = value;
        } else if (key == "CapPrm") {
            status.capPrm = value;
        } else if (key == "CapBnd") {
            status.capBnd = value;
        } else if (key == "CapAmb") {
            status.capAmb = value;
        } else if (key == "NoNewPrivs") {
            status.noNewPrivs = asInt(value);
        } else if (key == "Seccomp") {
            status.seccomp = asInt(value);
        }
    }
    return status;
}

bool isZeroMask(const std::optional<std::string>& mask)
{
    if (!mask || mask->empty()) {
        return false;
    }
    for (char c : *mask) {
        if (c != '0') {
            return false;
        }
    }
    return true;
}

Checks processStatusChecks(const ProcessStatus& status)
{
    Checks checks;
    checks.push_back(maskCheck("cap_eff_zero", "CapEff", status.capEff));
    checks.push_back(maskCheck("cap_prm_zero", "CapPrm", status.capPrm));
    checks.push_back(maskCheck("cap_bnd_zero", "CapBnd", status.capBnd));
    checks.push_back(maskCheck("cap_amb_zero", "CapAmb", status.capAmb));
    checks.push_back({"no_new_privs", status.noNewPrivs == 1,
                      "NoNewPrivs: " + (status.noNewPrivs ? std::to_string(*status.noNewPrivs) : "(absent)")});
    static const char* const modes[] = {"disabled", "strict", "filter"};
    std::string mode = "(absent)";
    if (status.seccomp) {
        mode = std::to_string(*status.seccomp);
        if (*status.seccomp >= 0 && *status.seccomp <= 2) {
            mode += std::string(" (") + modes[*status.seccomp] + ")";
        }
    }
    checks.push_back({"seccomp_mode", status.seccomp == 2, "Seccomp: " + mode});
    return checks;
}

Checks currentProcessChecks()
{
    std::ifstream file("/proc/self/status");
    std::stringstream text;
    text << file.rdbuf();
    return processStatusChecks(ProcessStatus::parse(text.str()));
}

}  // namespace moat::probe
