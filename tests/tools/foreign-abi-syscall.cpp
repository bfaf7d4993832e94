// SPDX-License-Identifier: Apache-2.0
// Calls getpid through the i386 system-call ABI (int 0x80) of an x86-64
// kernel, the classic way around a filter written for the native ABI only.
// Prints "i386 getpid: N" when the kernel answered.

#include <cstdio>

int main()
{
#if defined(__x86_64__)
    long result = 20;  // __NR_getpid in the i386 table
    asm volatile("int $0x80" : "+a"(result) : : "memory");
    std::printf("i386 getpid: %ld\n", result);
    return result > 0 ? 0 : 1;
#else
    std::puts("not an x86-64 machine");
    return 2;
#endif
}
