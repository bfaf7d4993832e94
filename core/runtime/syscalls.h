// SPDX-License-Identifier: Apache-2.0
#pragma once

// Thin wrappers for the system calls glibc 2.36 does not wrap, and the
// Landlock UAPI as of ABI 7. The UAPI is spelled out here rather than taken
// from <linux/landlock.h> because Debian 12's kernel headers stop at ABI 2,
// while the kernels moat runs on offer more; the values are kernel ABI and
// never change.

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace moat::sys {

struct CloneArgs {
    uint64_t flags = 0;
    uint64_t pidfd = 0;
    uint64_t childTid = 0;
    uint64_t parentTid = 0;
    uint64_t exitSignal = 0;
    uint64_t stack = 0;
    uint64_t stackSize = 0;
    uint64_t tls = 0;
    uint64_t setTid = 0;
    uint64_t setTidSize = 0;
    uint64_t cgroup = 0;
};

inline constexpr uint64_t kCloneNewTime = 0x00000080ULL;

// Like fork(2) when it returns 0 in the child; the caller owns the rest.
inline long clone3(CloneArgs& args)
{
    return ::syscall(SYS_clone3, &args, sizeof args);
}

inline int pidfdSendSignal(int pidfd, int sig)
{
    return static_cast<int>(::syscall(SYS_pidfd_send_signal, pidfd, sig, nullptr, 0));
}

inline int pivotRoot(const char* newRoot, const char* putOld)
{
    return static_cast<int>(::syscall(SYS_pivot_root, newRoot, putOld));
}

namespace landlock {

inline constexpr uint32_t kCreateRulesetVersion = 1U << 0;

inline constexpr uint64_t kFsExecute = 1ULL << 0;
inline constexpr uint64_t kFsWriteFile = 1ULL << 1;
inline constexpr uint64_t kFsReadFile = 1ULL << 2;
inline constexpr uint64_t kFsReadDir = 1ULL << 3;
inline constexpr uint64_t kFsRemoveDir = 1ULL << 4;
inline constexpr uint64_t kFsRemoveFile = 1ULL << 5;
inline constexpr uint64_t kFsMakeChar = 1ULL << 6;
inline constexpr uint64_t kFsMakeDir = 1ULL << 7;
inline constexpr uint64_t kFsMakeReg = 1ULL << 8;
inline constexpr uint64_t kFsMakeSock = 1ULL << 9;
inline constexpr uint64_t kFsMakeFifo = 1ULL << 10;
inline constexpr uint64_t kFsMakeBlock = 1ULL << 11;
inline constexpr uint64_t kFsMakeSym = 1ULL << 12;
inline constexpr uint64_t kFsRefer = 1ULL << 13;     // ABI 2
inline constexpr uint64_t kFsTruncate = 1ULL << 14;  // ABI 3
inline constexpr uint64_t kFsIoctlDev = 1ULL << 15;  // ABI 5

inline constexpr uint64_t kNetBindTcp = 1ULL << 0;     // ABI 4
inline constexpr uint64_t kNetConnectTcp = 1ULL << 1;  // ABI 4

inline constexpr uint64_t kScopeAbstractUnixSocket = 1ULL << 0;  // ABI 6
inline constexpr uint64_t kScopeSignal = 1ULL << 1;              // ABI 6

inline constexpr int kRulePathBeneath = 1;
inline constexpr int kRuleNetPort = 2;

struct RulesetAttr {
    uint64_t handledAccessFs = 0;
    uint64_t handledAccessNet = 0;
    uint64_t scoped = 0;
};

struct __attribute__((packed)) PathBeneathAttr {
    uint64_t allowedAccess = 0;
    int32_t parentFd = -1;
};

struct NetPortAttr {
    uint64_t allowedAccess = 0;
    uint64_t port = 0;
};

inline long createRuleset(const RulesetAttr* attr, size_t size, uint32_t flags)
{
    return ::syscall(SYS_landlock_create_ruleset, attr, size, flags);
}

inline long addRule(int rulesetFd, int ruleType, const void* attr)
{
    return ::syscall(SYS_landlock_add_rule, rulesetFd, ruleType, attr, 0);
}

inline long restrictSelf(int rulesetFd)
{
    return ::syscall(SYS_landlock_restrict_self, rulesetFd, 0);
}

}  // namespace landlock

}  // namespace moat::sys
