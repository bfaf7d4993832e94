// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace moat {

// Fixed-size byte buffers for relaying HTTP bodies, reused across messages
// and connections: a message borrows one for as long as its body flows,
// rather than allocating and clearing a fresh one per message.
// Single-threaded, like the proxy.
class ChunkPool {
public:
    class Lease {
    public:
        Lease(ChunkPool& pool, std::unique_ptr<char[]> chunk) : pool_(pool), chunk_(std::move(chunk)) {}
        ~Lease() { pool_.giveBack(std::move(chunk_)); }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;

        char* data() const { return chunk_.get(); }
        std::size_t size() const { return pool_.chunkSize_; }

    private:
        ChunkPool& pool_;
        std::unique_ptr<char[]> chunk_;
    };

    ChunkPool(std::size_t chunkSize, std::size_t maxIdle) : chunkSize_(chunkSize), maxIdle_(maxIdle) {}

    Lease take()
    {
        if (idle_.empty()) {
            // Not zero-filled: every byte is written before it is read.
            return Lease(*this, std::make_unique_for_overwrite<char[]>(chunkSize_));
        }
        auto chunk = std::move(idle_.back());
        idle_.pop_back();
        return Lease(*this, std::move(chunk));
    }

private:
    void giveBack(std::unique_ptr<char[]> chunk)
    {
        if (chunk && idle_.size() < maxIdle_) {
            idle_.push_back(std::move(chunk));
        }
    }

    std::size_t chunkSize_;
    std::size_t maxIdle_;
    std::vector<std::unique_ptr<char[]>> idle_;
};

}  // namespace moat
