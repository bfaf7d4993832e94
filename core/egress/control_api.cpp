// SPDX-License-Identifier: Apache-2.0
#include "egress/control_api.h"

#include <string>

namespace moat {

namespace {

ControlResponse problem(unsigned status, std::string text)
{
    return {status, {{"error", std::move(text)}}};
}

constexpr std::string_view kRequests = "/v1/requests";

std::string_view routeOf(std::string_view path)
{
    return path.substr(0, path.find('?'));
}

}  // namespace

bool isEscalationRequest(std::string_view method, std::string_view path)
{
    return method == "POST" && routeOf(path) == kRequests;
}

ControlResponse answerControlRequest(std::string_view method, std::string_view path, const nlohmann::json& session)
{
    const std::string_view route = routeOf(path);
    if (route == "/v1/session") {
        if (method != "GET" && method != "HEAD") {
            return problem(405, "/v1/session is read-only: use GET");
        }
        return {200, session};
    }
    if (route == kRequests) {
        return problem(405, "/v1/requests takes an escalation request: use POST with a JSON body");
    }
    constexpr std::size_t kShown = 200;  // the path is the agent's text
    return problem(404, "no such endpoint: " + std::string(route.substr(0, kShown)) +
                            " (this session serves GET /v1/session and POST /v1/requests)");
}

}  // namespace moat
