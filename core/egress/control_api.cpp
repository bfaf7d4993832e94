// SPDX-License-Identifier: Apache-2.0
#include "egress/control_api.h"

#include <string>

namespace moat {

namespace {

ControlResponse problem(unsigned status, std::string text)
{
    return {status, {{"error", std::move(text)}}};
}

}  // namespace

ControlResponse answerControlRequest(std::string_view method, std::string_view path, const nlohmann::json& session)
{
    const std::string_view route = path.substr(0, path.find('?'));
    if (route == "/v1/session") {
        if (method != "GET" && method != "HEAD") {
            return problem(405, "/v1/session is read-only: use GET");
        }
        return {200, session};
    }
    constexpr std::size_t kShown = 200;  // the path is the agent's text
    return problem(404, "no such endpoint: " + std::string(route.substr(0, kShown)) +
                            " (this session serves GET /v1/session)");
}

}  // namespace moat
