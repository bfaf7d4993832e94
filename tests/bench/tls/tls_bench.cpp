// SPDX-License-Identifier: Apache-2.0
// How fast the session CA mints leaf certificates (issue 6's target: under
// 2 ms, cached after the first). Mints N distinct names on a fresh
// authority, then asks for each again (cache hits); prints a markdown table.
//
//   tls_bench [--names N] [--rounds R]

#include "egress/tls/session_authority.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Summary {
    double median = 0;
    double p90 = 0;
    double max = 0;
};

Summary summarize(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    return {samples[samples.size() / 2], samples[samples.size() * 9 / 10], samples.back()};
}

double microseconds(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double, std::micro>(to - from).count();
}

}  // namespace

int main(int argc, char** argv)
{
    int names = 2000;
    int rounds = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--names") == 0) {
            names = std::max(1, std::atoi(argv[i + 1]));
        } else if (std::strcmp(argv[i], "--rounds") == 0) {
            rounds = std::max(1, std::atoi(argv[i + 1]));
        }
    }
    std::vector<double> create;
    std::vector<double> mint;
    std::vector<double> cached;
    for (int round = 0; round < rounds; ++round) {
        const auto started = Clock::now();
        auto authority = moat::SessionAuthority::create(static_cast<std::size_t>(names));
        create.push_back(microseconds(started, Clock::now()));
        if (!authority) {
            std::fprintf(stderr, "tls_bench: %s\n", authority.error().message().c_str());
            return 1;
        }
        for (int i = 0; i < names; ++i) {
            const std::string host = "host" + std::to_string(i) + ".bench.example";
            auto from = Clock::now();
            if (!authority.value()->leafFor(host)) {
                std::fprintf(stderr, "tls_bench: minting failed for %s\n", host.c_str());
                return 1;
            }
            mint.push_back(microseconds(from, Clock::now()));
        }
        for (int i = 0; i < names; ++i) {
            const std::string host = "host" + std::to_string(i) + ".bench.example";
            auto from = Clock::now();
            (void)authority.value()->leafFor(host);
            cached.push_back(microseconds(from, Clock::now()));
        }
        if (authority.value()->mintedCount() != static_cast<std::uint64_t>(names)) {
            std::fprintf(stderr, "tls_bench: the cache minted again\n");
            return 1;
        }
    }
    const Summary c = summarize(create);
    const Summary m = summarize(mint);
    const Summary h = summarize(cached);
    std::printf("| leaf certificates (%d names x %d rounds) | median | p90 | max |\n", names, rounds);
    std::printf("| --- | --- | --- | --- |\n");
    std::printf("| session CA made (two P-256 keys, CA signed) | %.0f us | %.0f us | %.0f us |\n", c.median, c.p90,
                c.max);
    std::printf("| leaf minted (first use of a name) | %.0f us | %.0f us | %.0f us |\n", m.median, m.p90, m.max);
    std::printf("| leaf from the cache (the same name again) | %.2f us | %.2f us | %.2f us |\n", h.median, h.p90,
                h.max);
    std::printf("\ntarget: minting under 2 ms (2000 us) -> %s\n", m.median < 2000 ? "met" : "NOT met");
    return 0;
}
