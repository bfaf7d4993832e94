// SPDX-License-Identifier: Apache-2.0
#include "claims/landlock_rights.h"

#include "runtime/landlock_policy.h"
#include "runtime/syscalls.h"

#include <algorithm>
#include <utility>

namespace moat::claims {

namespace ll = sys::landlock;

namespace {

// The kernel's names (include/uapi/linux/landlock.h), lower case and without
// the LANDLOCK_ACCESS_FS_ prefix, by the bit the runtime uses.
constexpr std::pair<uint64_t, const char*> kFsRightNames[] = {
    {ll::kFsExecute, "execute"},       {ll::kFsWriteFile, "write_file"}, {ll::kFsReadFile, "read_file"},
    {ll::kFsReadDir, "read_dir"},      {ll::kFsRemoveDir, "remove_dir"}, {ll::kFsRemoveFile, "remove_file"},
    {ll::kFsMakeChar, "make_char"},    {ll::kFsMakeDir, "make_dir"},     {ll::kFsMakeReg, "make_reg"},
    {ll::kFsMakeSock, "make_sock"},    {ll::kFsMakeFifo, "make_fifo"},   {ll::kFsMakeBlock, "make_block"},
    {ll::kFsMakeSym, "make_sym"},      {ll::kFsRefer, "refer"},          {ll::kFsTruncate, "truncate"},
    {ll::kFsIoctlDev, "ioctl_dev"},
};

// LandlockPolicy::apply handles TCP from ABI 4 (a default sandbox restricts
// TCP: it has neither --local-tcp nor --net open) and scopes from ABI 6.
constexpr int kTcpAbi = 4;
constexpr int kScopeAbi = 6;

}  // namespace

int abiInUse(int kernelAbi)
{
    if (kernelAbi < LandlockPolicy::kMinimumAbi) {
        return -1;
    }
    return std::min(kernelAbi, kHighestHandledAbi);
}

std::vector<std::string> fsRightNames(uint64_t rights)
{
    std::vector<std::string> names;
    for (int bit = 0; bit < 64; ++bit) {
        const uint64_t mask = 1ULL << bit;
        if ((rights & mask) == 0) {
            continue;
        }
        const auto* known = std::find_if(std::begin(kFsRightNames), std::end(kFsRightNames),
                                         [mask](const auto& entry) { return entry.first == mask; });
        names.push_back(known != std::end(kFsRightNames) ? std::string(known->second) : "bit " + std::to_string(bit));
    }
    return names;
}

LandlockRights defaultSandboxRights(int abi)
{
    LandlockRights rights;
    if (abi < LandlockPolicy::kMinimumAbi) {
        return rights;
    }
    rights.abi = abi;
    rights.fs = fsRightNames(LandlockPolicy::fsRightsForAbi(abi));
    if (abi >= kTcpAbi) {
        rights.net = {"bind_tcp", "connect_tcp"};
    }
    if (abi >= kScopeAbi) {
        rights.scopes = {"abstract_unix_socket", "signal"};
    }
    return rights;
}

}  // namespace moat::claims
