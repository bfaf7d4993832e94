// SPDX-License-Identifier: Apache-2.0
#include "secret_events.h"

namespace moat {

namespace {

// The host as the agent asked for it: printable and bounded in the record.
std::string shownHost(std::string_view host)
{
    std::string shown;
    for (char c : host.substr(0, 255)) {
        shown.push_back(c >= 0x20 && c < 0x7F ? c : '?');
    }
    return shown;
}

}  // namespace

nlohmann::json secretUseData(const SwapVerdict::Use& use, std::string_view host, uint16_t port)
{
    return {{"secret", use.secret}, {"host", shownHost(host)}, {"port", port}, {"headers", use.headers}};
}

nlohmann::json secretLeakAttemptData(const SwapVerdict& verdict, std::string_view host, uint16_t port)
{
    return {{"secret", verdict.secret},
            {"host", shownHost(host)},
            {"port", port},
            {"where", verdict.where},
            {"reason", verdict.reason}};
}

}  // namespace moat
