// SPDX-License-Identifier: Apache-2.0
#pragma once

// A port on the host's 127.0.0.1 that nobody listens on right now (the kernel
// picks it; a tiny race with other programs remains, as with any such helper).
class LoopbackPort
{
public:
    enum class Protocol { Tcp, Udp };
    // 0 when no socket could be bound.
    static int pickFree(Protocol protocol);
};
