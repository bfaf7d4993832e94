// SPDX-License-Identifier: Apache-2.0
#include "moatd_call.h"

namespace moat::cli {

Result<std::optional<std::string>> callMoatd(const std::function<MoatdReply(MoatdClient&)>& call)
{
    auto moatd = connectToMoatd();
    if (!moatd) {
        return moatd.error();
    }
    if (!moatd.value()) {
        return std::optional<std::string>();
    }
    MoatdReply reply = call(*moatd.value());
    if (reply.absent()) {
        return std::optional<std::string>();
    }
    if (!reply.ok) {
        // moatd's messages say what went wrong and what to do; the error's
        // name is for scripts and bug reports.
        return Error{reply.errorMessage + " (" + reply.errorName + ")"};
    }
    return std::optional<std::string>(std::move(reply.value));
}

}  // namespace moat::cli
