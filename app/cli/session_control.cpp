// SPDX-License-Identifier: Apache-2.0
#include "session_control.h"

#include "running_session.h"
#include "supervisor_control.h"

namespace moat::cli {

Result<SessionControlAnswer> controlSession(const SessionControlRequest& request)
{
    auto viaMoatd = callMoatd(request.viaMoatd);
    if (!viaMoatd) {
        return viaMoatd.error();
    }
    if (viaMoatd.value()) {
        return SessionControlAnswer{request.session, *viaMoatd.value(), true};
    }
    auto session = runningSession(request.session);
    if (!session) {
        return session.error();
    }
    auto answer =
        SupervisorControl::ask(session->paths, session->id, request.message, request.awaited, request.timeout);
    if (!answer) {
        Error error = answer.error();
        error.what = "session " + session->id + ": " + error.what;
        return error;
    }
    return SessionControlAnswer{session->id, answer->dump(), false};
}

}  // namespace moat::cli
